//! Above the games of an archive: what a database keeper asks of 10^5-10^7 records at once.
//! Each tool streams the games (one at a time, a small fixed record kept per game where
//! anything is kept) and gives a report the front ends only print.

pub mod dedupe;
pub mod find;
pub mod stats;
