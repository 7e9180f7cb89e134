//! Settings in layers: built-in defaults, then a TOML file, then `SCOREDESK_*`
//! environment variables (`SCOREDESK_DATABASE_URL`, `SCOREDESK_BIND`, ...).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use ipnet::IpNet;
use secrecy::SecretString;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::net::IpAddr;

/// Everything the server needs to run.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Settings {
    /// Address `serve` listens on.
    pub bind: SocketAddr,
    /// `sqlite:<path>` or `postgres://user:password@host/db`. Its `Debug` is hidden
    /// because a PostgreSQL URL may carry a password.
    #[serde(serialize_with = "serialize_secret")]
    pub database_url: SecretString,
    /// Entities per response page before a continuation link.
    pub page_size: u32,
    /// Minutes a verified password is remembered after its last use (its
    /// session): the sign-in limits never refuse it meanwhile (docs/operations.md).
    pub sign_in_session_minutes: u64,
    /// Seconds an account (its role, area and password hash) is used as read before
    /// it is read again: how long a password changed or an account removed by
    /// another process may still be accepted by this one.
    pub account_cache_seconds: u64,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Bytes of request bodies of 1 MiB or more read and worked on at once; further
    /// such requests wait their turn (feeds::pipeline::body_budget).
    pub body_bytes_at_once: usize,
    /// The answers one `$batch` may hold; GETs past it are not run (400).
    pub max_batch_answer_bytes: usize,
    /// `pretty` for people, `json` for log collectors.
    pub log_format: LogFormat,
    /// Seconds a client has to send a request's headers (and, on a kept-alive
    /// connection, to start its next request) before the connection is closed.
    pub header_timeout_seconds: u64,
    /// Seconds a request may take from its headers to its response (408 beyond).
    pub request_timeout_seconds: u64,
    /// Connections served at once; further ones wait in the listen queue.
    pub max_connections: usize,
    /// Connections one client address may hold at once (trusted proxies excepted);
    /// further ones get 503 and are closed.
    pub max_connections_per_address: usize,
    /// Seconds one SQL statement may run on PostgreSQL (`statement_timeout`).
    pub statement_timeout_seconds: u64,
    /// Password checks (argon2 hashes) run at once; 0 means one per CPU core.
    pub password_checks_at_once: usize,
    /// Sign-ins that may wait for a password check; more are refused with 429.
    pub password_checks_waiting: usize,
    /// Failed sign-ins of one account name from one address, per window, before
    /// 429 there (and, from everywhere, before each check is delayed).
    pub failed_sign_ins_per_account: u32,
    /// Failed sign-ins from one client address, per window, before its checks are
    /// spaced out to that rate.
    pub failed_sign_ins_per_address: u32,
    /// The window failed sign-ins are counted in, in seconds.
    pub failed_sign_in_window_seconds: u64,
    /// Seconds a snapshot's printable link stays valid after the read that made it.
    pub print_link_seconds: u64,
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` name the client (IP
    /// networks or addresses); empty: every client is its peer address.
    pub trusted_proxies: Vec<TrustedProxy>,
    /// `Host` header values this server answers to (`name:port`); empty for any.
    /// The desktop app sets its own address, so that a web page that finds its
    /// port through DNS rebinding is refused.
    pub allowed_hosts: Vec<String>,
    /// How long a process holds a queued job (a purge) without renewing its lease;
    /// a job whose process died is taken up again after this (docs/purges.md).
    pub job_lease_seconds: u64,
    /// How often an idle process looks for due jobs queued by other processes.
    pub job_poll_milliseconds: u64,
    /// How long a POST to RubricRegrades waits for its regrade to end before it
    /// answers with the regrade still running (docs/odata.md, "RubricRegrades").
    pub regrade_wait_milliseconds: u64,
    /// How often the daily retention purges are looked for.
    pub retention_check_seconds: u64,
    /// Retention policies set from this file at start-up, as
    /// `[[retention]]` tables of `customer` and `days` (docs/purges.md).
    pub retention: Vec<RetentionSetting>,
}

/// A network whose forwarding headers are believed: `10.0.0.0/8`, or one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedProxy(IpNet);

impl TrustedProxy {
    pub fn net(&self) -> IpNet {
        self.0
    }
}

impl std::str::FromStr for TrustedProxy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        text.parse::<IpNet>()
            .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
            .map(Self)
            .map_err(|_| format!("'{text}' is not an address or a network such as 10.0.0.0/8"))
    }
}

impl<'de> Deserialize<'de> for TrustedProxy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for TrustedProxy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.to_string())
    }
}

/// A customer area's retention period, from the configuration file.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub struct RetentionSetting {
    pub customer: i32,
    pub days: i32,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Pretty,
    Json,
}

fn serialize_secret<S: serde::Serializer>(
    _: &SecretString,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str("")
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: SecretString::from(default_database_url()),
            page_size: 100,
            sign_in_session_minutes: 720,
            account_cache_seconds: 30,
            max_body_bytes: 32 * 1024 * 1024,
            body_bytes_at_once: 64 * 1024 * 1024,
            max_batch_answer_bytes: 64 * 1024 * 1024,
            log_format: LogFormat::Pretty,
            header_timeout_seconds: 15,
            request_timeout_seconds: 60,
            max_connections: 1024,
            max_connections_per_address: 256,
            statement_timeout_seconds: 30,
            password_checks_at_once: 0,
            password_checks_waiting: 256,
            failed_sign_ins_per_account: 10,
            failed_sign_ins_per_address: 50,
            failed_sign_in_window_seconds: 60,
            print_link_seconds: 1800,
            allowed_hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            job_lease_seconds: 60,
            job_poll_milliseconds: 1000,
            regrade_wait_milliseconds: 5000,
            retention_check_seconds: 3600,
            retention: Vec::new(),
        }
    }
}

impl Settings {
    /// Defaults, then `file` if given, then the environment.
    pub fn load(file: Option<&Path>) -> Result<Self, Box<figment::Error>> {
        let mut figment = Figment::from(Serialized::defaults(Settings::default()));
        // The serialised default hides the URL; put the real default back.
        figment = figment.merge(Serialized::default("database_url", default_database_url()));
        if let Some(file) = file {
            figment = figment.merge(Toml::file_exact(file));
        }
        figment
            .merge(Env::prefixed("SCOREDESK_"))
            .extract()
            .map_err(Box::new)
    }
}

/// A SQLite file in the user's data directory (`~/.local/share/scoredesk/` on Linux).
pub fn default_database_url() -> String {
    let dir = directories::ProjectDirs::from("org", "ScoreDesk", "scoredesk")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from("."));
    sqlite_url(&dir.join("scoredesk.db"))
}

/// The SQLite URL of a file path.
pub fn sqlite_url(path: &Path) -> String {
    format!("sqlite:{}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;

    #[test]
    fn the_debug_form_of_settings_hides_the_database_url() {
        let settings = Settings {
            database_url: SecretString::from("postgres://u:hunter2@h/db"),
            ..Settings::default()
        };
        assert!(!format!("{settings:?}").contains("hunter2"));
    }

    #[test]
    fn trusted_proxies_parse_as_networks_or_addresses() {
        assert!("10.0.0.0/8".parse::<TrustedProxy>().is_ok());
        assert!("fd00::/8".parse::<TrustedProxy>().is_ok());
        assert_eq!(
            "127.0.0.1".parse::<TrustedProxy>().unwrap().net(),
            "127.0.0.1/32".parse::<IpNet>().unwrap()
        );
        let error = "10.0.0.0/33".parse::<TrustedProxy>().unwrap_err();
        assert!(error.contains("10.0.0.0/33"), "{error}");
    }

    #[test]
    fn a_bad_trusted_proxy_in_the_file_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("scoredesk.toml");
        std::fs::write(
            &file,
            "trusted_proxies = [\"10.0.0.0/8\", \"proxy.local\"]\n",
        )
        .unwrap();
        let error = Settings::load(Some(&file)).unwrap_err().to_string();
        assert!(error.contains("proxy.local"), "{error}");
    }

    #[test]
    fn a_config_file_overrides_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("scoredesk.toml");
        std::fs::write(
            &file,
            "page_size = 25\ndatabase_url = \"sqlite:/tmp/x.db\"\n",
        )
        .unwrap();
        let settings = Settings::load(Some(&file)).unwrap();
        assert_eq!(settings.page_size, 25);
        assert_eq!(settings.database_url.expose_secret(), "sqlite:/tmp/x.db");
    }
}
