//! The `scoredesk-server` command: parse the command line, call the library.

/// mimalloc rather than the C library's allocator: a request allocates hundreds of
/// small blocks, and glibc's malloc and free were a fifth of a one-row read's CPU
/// (docs/benchmarks.md, "Where a request's time went").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(scoredesk_server::cli::run())
}
