//! Prints what the probe finds for a directory or block device: `cargo run -p probe
//! --example probe -- /some/dir`.

fn main() {
    let target = std::env::args().nth(1).unwrap_or_else(|| "/".to_string());
    let found = probe::probe(std::path::Path::new(&target));
    print!("{}", found.report());
    if std::env::args().any(|a| a == "--json") {
        println!("{}", serde_json::to_string_pretty(&found.facts()).unwrap_or_default());
    }
}
