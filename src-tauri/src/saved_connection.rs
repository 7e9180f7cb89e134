//! The remote server the user chose, remembered across starts. The address, area
//! and user name go to `connection.json` in the app's data directory; the password
//! goes to the platform keyring (Secret Service, Keychain, Credential Manager) and,
//! only where there is none, to a file that only the user can read. Choosing the
//! built-in server again forgets all three.

use std::path::Path;
use ts_rs::TS;

use anyhow::Context;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

use crate::private_file::write_private;

const CONNECTION_FILE: &str = "connection.json";
/// The fallback for the password where no keyring answers (mode 0600).
const PASSWORD_FILE: &str = "remote-password";
/// The keyring's service name; the entry's user is [`SavedConnection::keyring_user`].
const KEYRING_SERVICE: &str = "ScoreDesk";

/// Where the password of a saved connection is kept.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum SecretStore {
    Keyring,
    /// A file only the user can read, where the platform has no keyring.
    PrivateFile,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SavedConnection {
    pub url: String,
    pub customer_id: i32,
    pub username: String,
    pub secret_store: SecretStore,
}

impl SavedConnection {
    /// One keyring entry per server, area and account.
    fn keyring_user(&self) -> String {
        format!("{}@{}#{}", self.username, self.url, self.customer_id)
    }

    fn keyring_entry(&self) -> keyring::Result<keyring::Entry> {
        keyring::Entry::new(KEYRING_SERVICE, &self.keyring_user())
    }
}

/// Remembers a connection and its password; returns where the password went.
pub fn save(
    dir: &Path,
    url: &str,
    customer_id: i32,
    username: &str,
    password: &SecretString,
) -> anyhow::Result<SavedConnection> {
    forget(dir);
    let mut saved = SavedConnection {
        url: url.to_owned(),
        customer_id,
        username: username.to_owned(),
        secret_store: SecretStore::Keyring,
    };
    let in_keyring = saved
        .keyring_entry()
        .and_then(|entry| entry.set_password(password.expose_secret()));
    if let Err(error) = in_keyring {
        tracing::warn!(%error, "no keyring: the password goes to a file only this user can read");
        write_private(&dir.join(PASSWORD_FILE), password.expose_secret())?;
        saved.secret_store = SecretStore::PrivateFile;
    }
    write_private(
        &dir.join(CONNECTION_FILE),
        &serde_json::to_string_pretty(&saved)?,
    )
    .with_context(|| format!("writing {}", dir.join(CONNECTION_FILE).display()))?;
    Ok(saved)
}

/// The remembered connection and its password, if there is one and its password
/// can still be read.
pub fn load(dir: &Path) -> anyhow::Result<Option<(SavedConnection, SecretString)>> {
    let path = dir.join(CONNECTION_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    let saved: SavedConnection =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    let password = match saved.secret_store {
        SecretStore::Keyring => saved
            .keyring_entry()
            .and_then(|entry| entry.get_password())
            .context("reading the password from the keyring")?,
        SecretStore::PrivateFile => std::fs::read_to_string(dir.join(PASSWORD_FILE))
            .context("reading the saved password")?,
    };
    Ok(Some((saved, SecretString::from(password))))
}

/// Forgets the remembered connection and its password, wherever it was kept.
pub fn forget(dir: &Path) {
    if let Ok(text) = std::fs::read_to_string(dir.join(CONNECTION_FILE)) {
        if let Ok(saved) = serde_json::from_str::<SavedConnection>(&text) {
            if saved.secret_store == SecretStore::Keyring {
                let _ = saved
                    .keyring_entry()
                    .and_then(|entry| entry.delete_credential());
            }
        }
    }
    for file in [CONNECTION_FILE, PASSWORD_FILE] {
        let _ = std::fs::remove_file(dir.join(file));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_keyring_the_password_goes_to_a_private_file_and_is_forgotten_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let password = SecretString::from("s3cret-for-the-test");
        // No session bus, so no Secret Service: the fallback is what is tested here
        // (the window tests run with a real GNOME Keyring; see scripts/test).
        std::env::set_var("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus");
        let saved = save(dir.path(), "http://scoring.test:8080", 3, "ada", &password).unwrap();
        assert_eq!(saved.secret_store, SecretStore::PrivateFile);
        let (loaded, secret) = load(dir.path()).unwrap().unwrap();
        assert_eq!(loaded, saved);
        assert_eq!(secret.expose_secret(), "s3cret-for-the-test");
        let json = std::fs::read_to_string(dir.path().join(CONNECTION_FILE)).unwrap();
        assert!(!json.contains("s3cret"), "no password in connection.json");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(PASSWORD_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "only the user can read it");
        forget(dir.path());
        assert!(load(dir.path()).unwrap().is_none());
        assert!(!dir.path().join(PASSWORD_FILE).exists());
    }
}
