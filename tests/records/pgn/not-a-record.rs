//! Not a game record: a Rust source file.

fn main() {
    println!("1. wS1");
}
