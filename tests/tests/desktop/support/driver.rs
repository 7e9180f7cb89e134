//! Starting the app under tauri-driver, and cleaning up after it.

use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};

/// The app binary: `SCOREDESK_DESKTOP_BIN`, or the workspace's debug build.
fn app_binary() -> PathBuf {
    let path = std::env::var_os("SCOREDESK_DESKTOP_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| package_dir().join("../target"));
            target.join("debug/scoredesk-desktop")
        });
    assert!(
        path.exists(),
        "build the app first (scripts/test does): {} is missing",
        path.display()
    );
    path
}

/// This checkout's `tests/` folder. Read when the test runs, not when it was built:
/// two checkouts sharing a target directory can run one test binary, and the
/// artefacts belong to the checkout that ran it.
fn package_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// Where screenshots are kept as test artefacts.
pub fn artifacts_dir() -> PathBuf {
    let dir = package_dir().join("../artifacts/desktop");
    std::fs::create_dir_all(&dir).expect("artifacts directory");
    dir
}

/// Two distinct free ports: both are held until both are known, so the second
/// cannot be the first one handed out again.
fn two_free_ports() -> (u16, u16) {
    let bind = || std::net::TcpListener::bind("127.0.0.1:0").expect("port 0");
    let (first, second) = (bind(), bind());
    let port = |listener: &std::net::TcpListener| listener.local_addr().expect("address").port();
    (port(&first), port(&second))
}

/// Waits until something listens on `port` (another process starting up).
fn wait_for_listener(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{what} did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// tauri-driver in a process group of its own: dropping it ends the whole group,
/// WebKitWebDriver and the app included, so nothing outlives the test.
struct ProcessGroup(Child);

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        let pid = self.0.id().to_string();
        let group = format!("-{pid}");
        for signal in ["-TERM", "-KILL"] {
            // WebKitWebDriver leaves the group; end tauri-driver's children by parent too.
            let _ = Command::new("pkill").args([signal, "-P", &pid]).status();
            let _ = Command::new("kill")
                .args([signal, "--", &group])
                .stderr(Stdio::null())
                .status();
            if matches!(self.0.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        let _ = self.0.wait();
    }
}

/// The app in its window, with a fresh data directory, and a WebDriver client on it.
pub struct DesktopSession {
    pub client: Client,
    pub data_dir: PathBuf,
    _data: tempfile::TempDir,
    _driver: ProcessGroup,
}

impl DesktopSession {
    /// The app with a fresh data directory (first start: the demo is seeded).
    pub async fn start() -> Self {
        Self::start_in(tempfile::tempdir().expect("data directory")).await
    }

    /// The app on the data directory of an earlier session (`close` hands it back):
    /// its database, account, settings and web storage are as that session left them.
    pub async fn start_in(data: tempfile::TempDir) -> Self {
        Self::start_with(data, &[]).await
    }

    /// As [`DesktopSession::start_in`], with more environment for the app (such as
    /// `GTK_THEME=Adwaita:dark`, the system's dark theme).
    pub async fn start_with(data: tempfile::TempDir, env: &[(&str, &str)]) -> Self {
        assert!(
            std::env::var_os("DISPLAY").is_some(),
            "the desktop tests need a display: run them under xvfb-run (scripts/test does)"
        );
        let (port, native_port) = two_free_ports();
        let driver = Command::new("tauri-driver")
            .process_group(0)
            .args([
                "--port",
                &port.to_string(),
                "--native-port",
                &native_port.to_string(),
            ])
            .env("SCOREDESK_DATA_DIR", data.path())
            // WebKit keeps its cache and localStorage (the app's drafts) under the XDG
            // directories: each session gets its own, so no run sees another's.
            .env("XDG_DATA_HOME", data.path().join("xdg-data"))
            .env("XDG_CACHE_HOME", data.path().join("xdg-cache"))
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tauri-driver starts (cargo install tauri-driver)");
        let driver = ProcessGroup(driver);
        // tauri-driver is another process, and it starts WebKitWebDriver before it
        // listens but does not wait for it: a new session sent before WebKitWebDriver
        // listens is dropped mid-answer (hyper's IncompleteMessage, seen on a loaded
        // CI machine). Wait for both ports.
        wait_for_listener(port, "tauri-driver");
        wait_for_listener(native_port, "WebKitWebDriver");
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), "wry".into());
        capabilities.insert(
            "tauri:options".into(),
            serde_json::json!({ "application": app_binary().to_string_lossy() }),
        );
        // Both of rustls' crypto back-ends are in the dependency tree; pick one.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = ClientBuilder::rustls()
            .expect("a TLS configuration")
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session with the app");
        Self {
            client,
            data_dir: data.path().to_path_buf(),
            _data: data,
            _driver: driver,
        }
    }

    /// Saves a PNG of the window as `artifacts/desktop/<name>.png`.
    pub async fn screenshot(&self, name: &str) {
        // WebKitGTK without compositing answers a screenshot only after its next
        // paint, and paints only when something on the page changes: on a page that
        // is still (no clock, no poll running) the screenshot would wait for ever.
        // A pixel in a corner that flickers between two all but transparent shades
        // while the screenshot is taken is that change; the two frames rendered
        // first make the picture current.
        let _ = self
            .client
            .execute_async(
                "const done = arguments[0]; \
                 const pixel = document.body.appendChild(document.createElement('div')); \
                 pixel.id = 'screenshot-flicker'; \
                 pixel.style.cssText = 'position:fixed;right:0;bottom:0;width:1px;height:1px;pointer-events:none'; \
                 let frame = 0; \
                 window.__screenshotFlicker = setInterval(() => { \
                   frame += 1; pixel.style.background = `rgba(0,0,0,${frame % 2 ? 0.01 : 0.02})`; \
                 }, 40); \
                 requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
                vec![],
            )
            .await;
        let png = self.client.screenshot().await.expect("a screenshot");
        let _ = self
            .client
            .execute(
                "clearInterval(window.__screenshotFlicker); document.getElementById('screenshot-flicker')?.remove();",
                vec![],
            )
            .await;
        std::fs::write(artifacts_dir().join(format!("{name}.png")), png)
            .expect("saving the screenshot");
    }

    /// Ends the session and the app; returns the data directory for `start_in`.
    pub async fn close(self) -> tempfile::TempDir {
        let _ = self.client.clone().close().await;
        let Self { _data, _driver, .. } = self;
        drop(_driver);
        _data
    }
}
