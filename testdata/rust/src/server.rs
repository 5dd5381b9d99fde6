use crate::store::{Item, Store};
use crate::MemoryStore;
use text_fmt::render;

/// Server answers catalogue requests.
pub struct Server {
    store: Box<dyn Store>,
    name: String,
}

impl Server {
    pub fn new() -> Server {
        let store = MemoryStore::new();
        Server { store: Box::new(store), name: String::from("shop") }
    }

    /// handle_get renders the item with this id.
    pub fn handle_get(&self, id: &str) -> String {
        self.log(id);
        match self.store.get(id) {
            Some(item) => render(&item.id, item.price),
            None => not_found(id),
        }
    }

    pub fn add(&mut self, item: Item) {
        self.store.put(item);
    }

    fn log(&self, msg: &str) {
        eprintln!("{}: {}", self.name, msg);
    }
}

fn not_found(id: &str) -> String {
    text_fmt::pad(id)
}

/// load reads a catalogue file; the call is to the standard library.
pub fn load(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}
