//! The shop crate: a catalogue served over a tiny API.

pub mod server;
pub mod store;

pub use store::{MemoryStore, Store};
