//! The release server as an operator runs it: its own process, a configuration
//! file, its log in a file. The soak reads its memory, threads and open files from
//! /proc, so it must not share the load generator's process.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

pub struct Server {
    child: Child,
    pub base: String,
    pub config: PathBuf,
    binary: PathBuf,
}

impl Server {
    /// Writes the configuration into `dir` and starts `binary serve` on a free port.
    pub async fn start(binary: &Path, database_url: &str, dir: &Path) -> anyhow::Result<Server> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let config = dir.join("scoredesk.toml");
        // 127.0.0.1 is trusted as a proxy: each simulated person names their own
        // address in X-Forwarded-For, as clients behind a school's proxy do.
        std::fs::write(
            &config,
            format!(
                "bind = \"127.0.0.1:{port}\"\ndatabase_url = \"{database_url}\"\n\
                 log_format = \"json\"\ntrusted_proxies = [\"127.0.0.1/32\"]\n"
            ),
        )?;
        let log = std::fs::File::create(dir.join("server.log"))?;
        let child = Command::new(binary)
            .arg("--config")
            .arg(&config)
            .arg("serve")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let server = Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            config,
            binary: binary.to_owned(),
        };
        server.wait_healthy().await?;
        Ok(server)
    }

    async fn wait_healthy(&self) -> anyhow::Result<()> {
        let client = reqwest::Client::new();
        let begun = Instant::now();
        while begun.elapsed() < Duration::from_secs(60) {
            if let Ok(response) = client.get(format!("{}/health", self.base)).send().await {
                if response.status().as_u16() < 500 {
                    return Ok(());
                }
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        bail!("the server did not answer /health within 60 s")
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Runs `scoredesk-server` with the server's configuration and `args` (the
    /// CLI beside the running server, as an operator would); its standard output.
    pub async fn cli(&self, args: &[String]) -> anyhow::Result<String> {
        let output = tokio::process::Command::new(&self.binary)
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .output()
            .await?;
        if !output.status.success() {
            bail!(
                "scoredesk-server {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// Stops the server as systemd would (SIGTERM) and waits for it.
    pub fn stop(mut self) -> anyhow::Result<()> {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let begun = Instant::now();
        while begun.elapsed() < Duration::from_secs(30) {
            if self.child.try_wait()?.is_some() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill()?;
        bail!("the server did not stop within 30 s of SIGTERM")
    }
}
