//! Fresh databases for tests, and the demo template they are copied from.

use std::path::PathBuf;

use scoredesk_server::config::sqlite_url;
use scoredesk_server::seed::demo::{seed_demo, DemoLogins, DemoOutcome};
use scoredesk_server::store::Store;
use sqlx::Connection;
use tokio::sync::{Mutex, OnceCell};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A database that exists for one test and is removed when dropped.
pub enum TestDatabase {
    Sqlite {
        url: String,
        _dir: tempfile::TempDir,
    },
    Postgres {
        url: String,
        admin_url: String,
        name: String,
    },
}

/// The PostgreSQL server the tests use: a URL with rights to create databases.
/// The test command starts a private cluster and sets it.
pub fn postgres_admin_url() -> String {
    std::env::var("SCOREDESK_TEST_PG_URL").unwrap_or_else(|_| {
        panic!("SCOREDESK_TEST_PG_URL is not set: run the tests with scripts/test, which starts a private PostgreSQL")
    })
}

fn with_database(admin_url: &str, name: &str) -> String {
    let (base, _) = admin_url
        .rsplit_once('/')
        .expect("a PostgreSQL URL ends in /<database>");
    format!("{base}/{name}")
}

async fn admin_execute(sql: &str) {
    let mut conn = sqlx::PgConnection::connect(&postgres_admin_url())
        .await
        .expect("PostgreSQL for tests is reachable");
    sqlx::query(sql)
        .execute(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Where the SQLite demo template lives: per process, under the target directory.
fn sqlite_template_path() -> PathBuf {
    let dir = std::env::temp_dir().join("scoredesk-test-templates");
    std::fs::create_dir_all(&dir).expect("template directory");
    // Remove templates of earlier runs whose process is gone.
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid = name
                .split('.')
                .next()
                .and_then(|p| p.strip_prefix("demo-"))
                .and_then(|p| p.parse::<u32>().ok());
            if pid.is_some_and(process_is_gone) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    dir.join(format!("demo-{}.db", std::process::id()))
}

fn postgres_template_name() -> String {
    format!("scoredesk_demo_template_{}", std::process::id())
}

fn process_is_gone(pid: u32) -> bool {
    pid != std::process::id() && !PathBuf::from(format!("/proc/{pid}")).exists()
}

/// Templates are per test process; the ones whose process has ended are removed.
async fn drop_templates_of_finished_runs() {
    let mut conn = sqlx::PgConnection::connect(&postgres_admin_url())
        .await
        .expect("PostgreSQL for tests is reachable");
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT datname FROM pg_database WHERE datname LIKE 'scoredesk_demo_template_%'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("listing databases");
    for name in names {
        let pid = name.rsplit('_').next().and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(process_is_gone) {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut conn)
                .await;
        }
    }
}

static SQLITE_TEMPLATE: OnceCell<[i32; 2]> = OnceCell::const_new();
static POSTGRES_TEMPLATE: OnceCell<[i32; 2]> = OnceCell::const_new();
/// PostgreSQL refuses to copy a template that another copy is reading.
static POSTGRES_COPY: Mutex<()> = Mutex::const_new(());

async fn seed_template(url: &str) -> [i32; 2] {
    let store = Store::connect(url).await.expect("template database");
    store.migrate().await.expect("template migrations");
    let DemoOutcome::Seeded { customer_ids } = seed_demo(&store, DemoLogins::Published)
        .await
        .expect("demo seed")
    else {
        panic!("a new template already had the demo");
    };
    store.close().await;
    customer_ids
}

impl TestDatabase {
    pub fn url(&self) -> &str {
        match self {
            TestDatabase::Sqlite { url, .. } | TestDatabase::Postgres { url, .. } => url,
        }
    }

    pub async fn create_empty(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temporary directory");
                let url = sqlite_url(&dir.path().join("scoredesk.db"));
                TestDatabase::Sqlite { url, _dir: dir }
            }
            Backend::Postgres => {
                let name = format!("scoredesk_test_{}", uuid::Uuid::new_v4().simple());
                admin_execute(&format!("CREATE DATABASE {name}")).await;
                let admin_url = postgres_admin_url();
                TestDatabase::Postgres {
                    url: with_database(&admin_url, &name),
                    admin_url,
                    name,
                }
            }
        }
    }

    /// A copy of the demo data (seeded once per process per backend).
    pub async fn create_from_demo(backend: Backend) -> (Self, [i32; 2]) {
        match backend {
            Backend::Sqlite => {
                let template = sqlite_template_path();
                let areas = *SQLITE_TEMPLATE
                    .get_or_init(|| async {
                        let _ = std::fs::remove_file(&template);
                        seed_template(&sqlite_url(&template)).await
                    })
                    .await;
                let database = Self::create_empty(Backend::Sqlite).await;
                let TestDatabase::Sqlite { url, .. } = &database else {
                    unreachable!()
                };
                let path = url.strip_prefix("sqlite:").expect("a sqlite URL");
                std::fs::copy(&template, path).expect("copying the demo template");
                (database, areas)
            }
            Backend::Postgres => {
                let template = postgres_template_name();
                let areas = *POSTGRES_TEMPLATE
                    .get_or_init(|| async {
                        drop_templates_of_finished_runs().await;
                        admin_execute(&format!("DROP DATABASE IF EXISTS {template}")).await;
                        admin_execute(&format!("CREATE DATABASE {template}")).await;
                        seed_template(&with_database(&postgres_admin_url(), &template)).await
                    })
                    .await;
                let name = format!("scoredesk_test_{}", uuid::Uuid::new_v4().simple());
                {
                    let _one_at_a_time = POSTGRES_COPY.lock().await;
                    admin_execute(&format!("CREATE DATABASE {name} TEMPLATE {template}")).await;
                }
                let admin_url = postgres_admin_url();
                (
                    TestDatabase::Postgres {
                        url: with_database(&admin_url, &name),
                        admin_url,
                        name,
                    },
                    areas,
                )
            }
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let TestDatabase::Postgres {
            admin_url, name, ..
        } = self
        {
            let (admin_url, name) = (admin_url.clone(), name.clone());
            // Drop runs outside async context; a short-lived runtime on its own thread
            // removes the database even when the test panicked.
            let _ = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build();
                if let Ok(runtime) = runtime {
                    runtime.block_on(async {
                        if let Ok(mut conn) = sqlx::PgConnection::connect(&admin_url).await {
                            let _ = sqlx::query(&format!(
                                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                            ))
                            .execute(&mut conn)
                            .await;
                        }
                    });
                }
            })
            .join();
        }
    }
}
