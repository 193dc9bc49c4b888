//! Stamps the build's identity into the engine (see `build_info`): the commit it
//! was built from and that commit's date (from git; `CHUHAN_BUILD_ID` overrides,
//! for builds outside a checkout), the compiler, the target and the profile.
//! Only a new commit, a branch switch or a changed `CHUHAN_BUILD_ID` reruns it.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-env-changed=CHUHAN_BUILD_ID");
    let id = std::env::var("CHUHAN_BUILD_ID").ok().or_else(|| {
        let commit = git(&["rev-parse", "--short=8", "HEAD"])?;
        let date = git(&["log", "-1", "--format=%cs", "HEAD"]).unwrap_or_default();
        Some(format!("{commit} {date}").trim().to_string())
    });
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = Path::new(&dir);
        println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", dir.join(head).display());
        }
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("packed-refs").display()
        );
    }
    println!(
        "cargo:rustc-env=CHUHAN_BUILD_ID={}",
        id.unwrap_or_else(|| "unknown build".into())
    );
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .unwrap_or_default();
    println!("cargo:rustc-env=CHUHAN_RUSTC={}", version.trim());
    println!(
        "cargo:rustc-env=CHUHAN_TARGET={}",
        std::env::var("TARGET").unwrap_or_default()
    );
    println!(
        "cargo:rustc-env=CHUHAN_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_default()
    );
}
