//! Prints what a QTI package reads as: `cargo run -p scoredesk-qti --example inspect -- FILE.zip`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: inspect PACKAGE.zip");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|error| {
        eprintln!("{path}: {error}");
        std::process::exit(1);
    });
    match scoredesk_qti::read_package(&bytes) {
        Ok(package) => println!("{package:#?}"),
        Err(error) => {
            eprintln!("refused: {error}");
            std::process::exit(1);
        }
    }
}
