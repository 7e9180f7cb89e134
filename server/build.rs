//! Rebuilds the crate when a migration is added or changed: `sqlx::migrate!` embeds
//! the files at compile time, and cargo does not otherwise know that a new file in
//! `migrations/` changes the binary (a release build made before it would ship
//! without it).

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
