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

/// Query builds a lookup step by step; each step returns the query.
pub struct Query {
    id: String,
    limit: usize,
}

impl Query {
    pub fn new(id: &str) -> Query {
        Query { id: id.to_string(), limit: 1 }
    }

    pub fn limit(mut self, n: usize) -> Query {
        self.limit = n;
        self
    }

    pub fn key(&self) -> String {
        self.id.clone()
    }

    pub fn len(&self) -> usize {
        self.limit
    }

    pub fn run(self, server: &Server) -> String {
        server.handle_get(&self.id)
    }
}

/// Job has methods named as Query's: only the receiver's type tells
/// which one a call means.
pub struct Job;

impl Job {
    pub fn limit(self, _n: usize) -> Job {
        self
    }

    pub fn run(self, _server: &Server) -> String {
        String::new()
    }
}

/// lookup chains the builder: each call is made on what the one before
/// returned, and key() leaves the repository (a String).
pub fn lookup(server: &Server, id: &str) -> usize {
    let first = Query::new(id).limit(2);
    let text = first.limit(3).run(server);
    text.len() + Query::new(id).key().len()
}
