//! Tasks: units of work the runtime runs for catalogue items.

use crate::store::Item;

cfg_rt! {
    /// spawn starts a task for the item and returns its handle.
    pub fn spawn(item: Item) -> JoinHandle {
        let handle = JoinHandle::new(next_id(), item.label());
        handle.announce();
        handle
    }

    /// JoinHandle waits for a spawned task.
    pub struct JoinHandle {
        id: u64,
        label: String,
    }

    impl JoinHandle {
        fn new(id: u64, label: String) -> JoinHandle {
            JoinHandle { id, label }
        }

        cfg_net! {
            /// announce reports the task over the network.
            pub fn announce(&self) {
                send(self.id, &self.label);
            }
        }
    }
}

cfg_net! {
    fn send(id: u64, label: &str) {
        eprintln!("task {}: {}", id, label);
    }
}

flags! {
    pub struct Mode: u8 {
        const READ = 1;
    }
}

fn next_id() -> u64 {
    1
}

cfg_if::cfg_if! {
    if #[cfg(unix)] {
        /// workers is how many tasks run at once on Unix.
        pub fn workers() -> usize {
            next_id() as usize
        }
    } else {
        pub fn workers() -> usize {
            1
        }
    }
}
