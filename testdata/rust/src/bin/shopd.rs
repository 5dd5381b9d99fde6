use shop::server::Server;

fn main() {
    let server = Server::new();
    println!("{}", server.handle_get("a"));
}
