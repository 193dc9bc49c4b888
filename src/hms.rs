//! Durations as the tools print them in progress lines: `h:mm:ss`.

use std::time::Duration;

/// `h:mm:ss` (hours unbounded).
pub fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(hms(Duration::from_secs(0)), "0:00:00");
        assert_eq!(hms(Duration::from_secs(3_723)), "1:02:03");
        assert_eq!(hms(Duration::from_secs(100 * 3600)), "100:00:00");
    }
}
