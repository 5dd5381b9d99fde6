mod memory;

pub use self::memory::MemoryStore;

/// Named things have a display name.
pub trait Named {
    fn name(&self) -> String;
}

/// Store keeps catalogue items by id.
pub trait Store: Named {
    fn get(&self, id: &str) -> Option<Item>;

    fn put(&mut self, item: Item);

    /// describe renders the item with this id, or nothing.
    fn describe(&self, id: &str) -> String {
        match self.get(id) {
            Some(item) => item.label(),
            None => String::new(),
        }
    }
}

/// Item is one catalogue entry.
#[derive(Clone, Debug)]
pub struct Item {
    pub id: String,
    pub price: u32,
}

impl Item {
    pub fn label(&self) -> String {
        format!("{} ({})", self.id, self.price)
    }
}
