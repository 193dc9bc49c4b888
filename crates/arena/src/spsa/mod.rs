//! SPSA tuning of the engine's search parameters by games, as OpenBench does it:
//! two settings of the same engine, θ + c_k·Δ and θ − c_k·Δ, play a game pair,
//! and θ moves along Δ by how the pair went. `chuhan spsa` drives it, in process
//! or as work units on a cluster (`crates/arena/ray/chuhan_ray.py`).
//!
//! | concern | module |
//! |---|---|
//! | a parameter and the OpenBench parameter file | [`parameter`] |
//! | the gains `a_k` and `c_k` | [`schedule`] |
//! | one iteration: Δ, θ±, the update | [`iteration`] |
//! | a round as deterministic work units (`--plan`) | [`plan`] |
//! | a unit's file, playing a unit (`--unit`) and a round | [`unit`] |
//! | the run's state, replayed from the unit files (`--merge`) | [`merge`] |
//!
//! One iteration is one game pair; a round is `pairs_per_round` iterations
//! played from the same θ, each with its own Δ, `k` and opening, and applied in
//! order of `k` when the round is merged (the delayed updates of OpenBench's
//! many workers). The engine must take every parameter as an option: Chuhan
//! does when built with the feature `tune` (`make tune-build`).

pub mod iteration;
pub mod merge;
pub mod parameter;
pub mod plan;
pub mod schedule;
pub mod unit;
