//! Events: the games of a tournament taken together ([`standings`]: points, Brightwell quotient, crosstable).

pub mod standings;
