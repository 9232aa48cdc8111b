// `sqlx::migrate!` embeds the migration folders at compile time, but cargo does not know
// they are inputs: without this, a migration added to a folder is not in the next build.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
