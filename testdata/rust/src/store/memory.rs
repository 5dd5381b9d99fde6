use std::collections::HashMap;

use super::{Item, Named, Store};

/// MemoryStore keeps items in a map.
pub struct MemoryStore {
    items: HashMap<String, Item>,
}

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore { items: HashMap::new() }
    }

    /// summary describes an item through the trait's default method.
    pub fn summary(&self, id: &str) -> String {
        self.describe(id)
    }
}

impl Named for MemoryStore {
    fn name(&self) -> String {
        "memory".to_string()
    }
}

impl Store for MemoryStore {
    fn get(&self, id: &str) -> Option<Item> {
        self.items.get(id).cloned()
    }

    fn put(&mut self, item: Item) {
        self.items.insert(item.id.clone(), item);
    }
}
