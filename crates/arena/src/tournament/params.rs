//! The tournament's tunables, each with where its value came from. Numbers fixed
//! by the rules (15 minutes for rapid, two moves down per player, 10 min + 10 s
//! tie-breaks) stay next to the rule they implement.

/// Search steps allowed per Swiss round before the best arrangement found so far
/// is taken ([`super::swiss`]). The first arrangement found is the plain procedure
/// of 附錄二 without pair-breaking; the budget bounds how much 拆對 is tried on top.
///
/// Measured on 300 seeded events of 2–31 players (results independent of colour):
/// player-rounds left with three of a colour more or in a row before the last three
/// rounds fell from 155 (no pair-breaking) to 82 (1 000 steps), 74 (5 000) and 69
/// (20 000); 5 000 steps pair round 7 of a 64-player field in about 6 ms.
pub const SWISS_SEARCH_BUDGET: u64 = 5_000;
