//! [`RuleSet`]: which repetition rules govern a game.

use std::fmt;
use std::str::FromStr;

/// The repetition rule set (棋例) used to judge cycles. How the two differ, clause by
/// clause, is their [`Policy`](super::Policy) ([`RuleSet::policy`]).
///
/// ```
/// use chuhan_engine::rules::RuleSet;
/// assert_eq!(RuleSet::default(), RuleSet::Cxa2011);
/// assert_eq!("axf".parse::<RuleSet>().unwrap(), RuleSet::Axf);
/// assert_eq!(RuleSet::Cxa2011.to_string(), "cxa2011");
/// assert_eq!(serde_json::from_str::<RuleSet>("\"axf\"").unwrap(), RuleSet::Axf);
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// The Chinese Xiangqi Association's 2011 competition rules (象棋竞赛规则2011),
    /// chapter 6 (棋例) and article 23: 將/殺/捉 per move, the §26.8 table when both
    /// sides are forbidden.
    #[default]
    Cxa2011,
    /// The Asian Xiangqi Federation rules: perpetual check and perpetual chase of the
    /// same piece are forbidden; mate threats and check-plus-chase are allowed.
    Axf,
}

impl RuleSet {
    /// Both rule sets.
    pub const ALL: [RuleSet; 2] = [RuleSet::Cxa2011, RuleSet::Axf];

    /// The name used on the command line, in options and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Cxa2011 => "cxa2011",
            RuleSet::Axf => "axf",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from parsing a rule-set name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleSetError(pub String);

impl fmt::Display for ParseRuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set {} (expected cxa2011 or axf)",
            crate::echo::echo(&self.0)
        )
    }
}

impl std::error::Error for ParseRuleSetError {}

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    /// Parses `cxa2011` (also `cxa`, `chinese`) or `axf` (also `asian`), any case.
    fn from_str(s: &str) -> Result<RuleSet, ParseRuleSetError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cxa2011" | "cxa" | "chinese" => Ok(RuleSet::Cxa2011),
            "axf" | "asian" => Ok(RuleSet::Axf),
            _ => Err(ParseRuleSetError(crate::echo::keep(s))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.to_string().parse::<RuleSet>(), Ok(r));
        }
        assert!("wxf".parse::<RuleSet>().is_err());
        assert_eq!(" AXF ".parse::<RuleSet>(), Ok(RuleSet::Axf));
    }
}
