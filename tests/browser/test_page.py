"""The web page of `chuhan serve` in a real browser: Debian's headless Chromium,
driven over WebDriver by Selenium (pinned in requirements.txt, installed by
`make browser-test` into target/browser-venv).

The test starts `chuhan serve` on an ephemeral loopback port, opens the page,
uploads a record with a ruled repetition (perpetual.pgn), steps from the start to
the repetition and reads the verdict and the side that must vary from the page;
it checks the banned move marked one ply earlier, the AXF switch and the English
panel, and keeps screenshots (desktop and phone sizes) under target/browser/.

Environment: CHUHAN_BIN (the binary), CHROMIUM (default /usr/bin/chromium),
CHROMEDRIVER (default /usr/bin/chromedriver).
"""

import os
import subprocess
import unittest
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "target" / "browser"
RECORD = Path(__file__).resolve().parent / "perpetual.pgn"
# A guard against a page that never settles, not a measure of speed.
PATIENCE = 60


class PageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        binary = os.environ.get("CHUHAN_BIN", str(ROOT / "target" / "ci" / "chuhan"))
        cls.server = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = cls.server.stdout.readline()
        if "http://" not in line:
            cls.server.kill()
            raise RuntimeError(f"chuhan serve printed no address: {line!r}")
        cls.url = line.split()[2]
        opts = webdriver.ChromeOptions()
        opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                    "--disable-gpu", "--window-size=1280,1000", "--lang=zh-TW"):
            opts.add_argument(arg)
        service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        try:
            cls.driver = webdriver.Chrome(options=opts, service=service)
        except Exception:
            cls.server.kill()
            cls.server.wait()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.kill()
        cls.server.wait()

    def wait_for(self, what, check):
        return WebDriverWait(self.driver, PATIENCE).until(lambda d: check(d), what)

    def el(self, id_):
        return self.driver.find_element(By.ID, id_)

    def at_ply(self, n, total):
        self.wait_for(f"ply {n} shown", lambda d: self.el("plyinfo").text == f"{n} / {total}")

    def settled(self, status):
        """Waits until the ruling panel shows `status` (the answers have arrived)."""
        self.wait_for(f"status {status}", lambda d: self.el("verdict").get_attribute("data-status") == status)

    def test_rules_a_repetition_from_an_uploaded_record(self):
        d = self.driver
        d.get(self.url)
        self.wait_for("the board", lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
        self.settled("ongoing")
        self.assertEqual(d.title, "楚漢 裁判 · Chuhan arbiter")

        # Upload the record: the page goes to its end.
        self.el("file").send_keys(str(RECORD))
        self.at_ply(9, 9)
        self.settled("repetition")

        # Step back to the start, then forward to the repetition.
        self.el("first").click()
        self.at_ply(0, 9)
        self.settled("ongoing")
        self.assertEqual(self.el("must-vary").get_attribute("data-side"), "")
        for n in range(1, 9):
            self.el("next").click()
            self.at_ply(n, 9)
        # Ply 8: red to move, and the move that would complete the cycle is banned.
        self.wait_for("the banned move", lambda d: d.find_elements(By.CSS_SELECTOR, "#flagged li[data-verdict=ban]"))
        banned = d.find_element(By.CSS_SELECTOR, "#flagged li[data-verdict=ban]")
        self.assertEqual(banned.get_attribute("data-move"), "f5h5")
        self.assertIn("禁著", banned.text)
        self.assertIn("禁", self.el("board").get_attribute("innerHTML"))
        self.el("next").click()
        self.at_ply(9, 9)
        self.settled("repetition")

        # The verdict and the side that must vary, as the page shows them.
        verdict = self.el("verdict")
        must_vary = self.el("must-vary")
        self.assertEqual(verdict.text, "循環重複（待判局面）")
        self.assertEqual(must_vary.get_attribute("data-side"), "red")
        self.assertEqual(must_vary.text, "紅方（須變著）")
        self.assertEqual(self.el("winner").get_attribute("data-winner"), "black")
        cycle = d.find_elements(By.CSS_SELECTOR, "#cycle tbody tr")
        self.assertEqual(len(cycle), 8)
        kinds = [row.find_elements(By.TAG_NAME, "td")[3].text for row in cycle]
        self.assertEqual(kinds, ["閒", "將", "閒", "殺", "閒", "將", "閒", "殺"])
        self.assertIn("第25.3條", self.el("reason").text)
        d.save_screenshot(str(ARTIFACTS / "page.png"))

        # English.
        self.el("lang").click()
        self.wait_for("English panel", lambda d: self.el("must-vary").text == "red (must vary)")
        self.assertEqual(self.el("verdict").text, "repetition (position occurred three times)")

        # AXF: mate threats are allowed, so the cycle is a draw.
        Select(self.el("rules")).select_by_value("axf")
        self.wait_for("AXF ruling", lambda d: self.el("must-vary").get_attribute("data-side") == "none")
        self.assertEqual(self.el("winner").get_attribute("data-winner"), "draw")

        # Back to Chinese and CXA, on a phone-sized screen.
        self.el("lang").click()
        Select(self.el("rules")).select_by_value("cxa2011")
        self.wait_for("CXA ruling", lambda d: self.el("must-vary").get_attribute("data-side") == "red")
        d.set_window_size(390, 844)
        board = self.el("board").find_element(By.TAG_NAME, "svg")
        self.assertLessEqual(board.size["width"], 390, "the board fits a phone's width")
        d.save_screenshot(str(ARTIFACTS / "page-phone.png"))

    def test_pasted_moves_and_analysis(self):
        d = self.driver
        d.set_window_size(1280, 1000)
        d.get(self.url)
        self.settled("ongoing")
        self.el("moves").send_keys("炮二平五 馬８進７ h0g2")
        self.el("load").click()
        self.at_ply(3, 3)
        items = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#movelist li")]
        self.assertEqual(items, ["炮二平五", "馬８進７", "馬二進三"])
        self.el("analyse").click()
        self.wait_for("an analysis", lambda d: "最佳著法" in self.el("analysis").text)
        # A bad move is reported, and the page keeps working.
        self.el("moves").clear()
        self.el("moves").send_keys("h2e2 zz")
        self.el("load").click()
        self.wait_for("the error", lambda d: "ply 2" in self.el("error").text)
        self.assertEqual(self.el("plyinfo").text, "3 / 3")


if __name__ == "__main__":
    unittest.main()
