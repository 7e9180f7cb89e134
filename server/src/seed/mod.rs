//! Data for people to try the service with (`seed --demo`) and for benchmarks
//! (`seed --scale N`).

mod answers;
mod content;
pub mod demo;
pub mod exam;
pub mod scale;
pub mod scans;
mod writer;
