//! The `scoredesk-server` command: parse the command line, call the library.

fn main() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(scoredesk_server::cli::run())
}
