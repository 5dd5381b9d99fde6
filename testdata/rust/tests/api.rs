use shop::server::Server;
use shop::store::Item;

#[test]
fn handle_get_renders_item() {
    let mut server = Server::new();
    server.add(Item { id: "a".into(), price: 3 });
    assert_eq!(server.handle_get("a"), "       a: 3");
}
