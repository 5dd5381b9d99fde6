use shop::spawn;
use shop::store::Item;

#[test]
fn spawn_starts_a_task() {
    let handle = spawn(Item { id: "a".into(), price: 3 });
    handle.announce();
}
