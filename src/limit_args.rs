//! The search limit of the subcommands that play games (`chuhan match`, `chuhan
//! spsa`): one of `--tc`, `--movetime`, `--depth` or `--nodes`, and the match
//! runner's [`Limit`] it stands for.

use chuhan_arena::game::clock::TimeControl;
use chuhan_arena::r#match::limit::Limit;
use std::time::Duration;

/// `--tc`, `--movetime`, `--depth` and `--nodes` (one of them), flattened into a
/// subcommand's arguments.
#[derive(clap::Args, Debug)]
#[group(id = "limit", multiple = false)]
pub struct LimitArgs {
    /// Clocks: BASE+INC in seconds (`10+0.1`), or any §6 control
    /// (`40/300:20/60`, `600`).
    #[arg(long, value_name = "TC")]
    pub tc: Option<TimeControl>,
    /// Fixed time per move in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
}

impl LimitArgs {
    /// The limit given, or why there is none (a zero, or no limit at all).
    pub fn limit(&self) -> Result<Limit, String> {
        if let Some(tc) = &self.tc {
            return Ok(Limit::clock(tc.clone()));
        }
        let positive = |n: Option<u64>, name: &str| match n {
            Some(0) => Err(format!("--{name} must be positive")),
            n => Ok(n),
        };
        if let Some(ms) = positive(self.movetime, "movetime")? {
            Ok(Limit::MoveTime(Duration::from_millis(ms)))
        } else if let Some(d) = positive(self.depth.map(u64::from), "depth")? {
            Ok(Limit::Depth(d as u32))
        } else if let Some(n) = positive(self.nodes, "nodes")? {
            Ok(Limit::Nodes(n))
        } else {
            Err("give --tc, --movetime, --depth or --nodes".into())
        }
    }
}
