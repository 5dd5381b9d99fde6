//! The shop crate: a catalogue served over a tiny API.

pub mod server;
pub mod store;

pub use store::{MemoryStore, Store};

#[macro_use]
mod macros;

cfg_rt! {
    pub mod task;
    pub use task::spawn;
}
