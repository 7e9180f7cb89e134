//! The command line of `scoredesk-server`.

mod export;
mod import;
mod sheets;

use std::io::Read;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Args, Parser, Subcommand};
use secrecy::{ExposeSecret, SecretString};

use crate::auth::{hash_password, Role};
use crate::config::Settings;
use crate::model::area::CustomerArea;
use crate::model::purge::check_retention_days;
use crate::seed::demo::{seed_demo, DemoLogins, DemoOutcome};
use crate::seed::scale::seed_scale;
use crate::store::{now_millis, NewAccount, Store};
use crate::{telemetry, App};

#[derive(Parser)]
#[command(
    name = "scoredesk-server",
    version,
    about = "ScoreDesk's OData Delivery and Scoring Data Service"
)]
struct Cli {
    /// A TOML configuration file (see docs/operations.md).
    #[arg(long, global = true, env = "SCOREDESK_CONFIG")]
    config: Option<PathBuf>,
    /// `sqlite:<path>` or `postgres://...`; overrides the file and SCOREDESK_DATABASE_URL.
    #[arg(long, global = true)]
    database_url: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the OData service (applies pending migrations first).
    Serve {
        /// Address to listen on, such as 127.0.0.1:8080.
        #[arg(long)]
        bind: Option<std::net::SocketAddr>,
    },
    /// Apply pending database migrations and exit.
    Migrate,
    /// Copy a SQLite database to FILE while servers keep running (consistent: one
    /// snapshot); FILE must not exist. PostgreSQL: use pg_dump (docs/operations.md).
    Backup { file: PathBuf },
    /// Fill the database with demo or benchmark data.
    Seed(SeedArgs),
    /// Manage customer areas.
    #[command(subcommand)]
    Customer(CustomerCommand),
    /// Manage service accounts.
    #[command(subcommand)]
    Account(AccountCommand),
    /// Manage customer areas' retention policies (docs/purges.md).
    #[command(subcommand)]
    Retention(RetentionCommand),
    /// Import content into a customer area (docs/content.md).
    #[command(subcommand)]
    Import(import::ImportCommand),
    /// Read scanned answer sheets back (docs/paper-sheets.md).
    #[command(subcommand)]
    Sheets(sheets::SheetsCommand),
    /// Take results out of a customer area (docs/exports.md).
    #[command(subcommand)]
    Export(export::ExportCommand),
}

#[derive(Subcommand)]
enum RetentionCommand {
    /// Purge a customer area's results finished more than DAYS days ago, daily.
    Set {
        #[arg(long)]
        customer: i32,
        #[arg(long)]
        days: i64,
    },
    /// Print a customer area's retention period.
    Show {
        #[arg(long)]
        customer: i32,
    },
    /// Remove a customer area's retention policy.
    Clear {
        #[arg(long)]
        customer: i32,
    },
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct SeedArgs {
    /// Two demo customer areas with accounts, assessments and results (idempotent).
    #[arg(long)]
    demo: bool,
    /// A new area with N scoring tasks and their results, for benchmarks.
    #[arg(long, value_name = "N")]
    scale: Option<usize>,
    /// A new area with one 20-question multiple-choice assessment and N final
    /// results, for the export and item analysis benchmarks.
    #[arg(long, value_name = "N")]
    exam: Option<usize>,
}

#[derive(Subcommand)]
enum CustomerCommand {
    /// Create a customer area and print its ID.
    Add {
        #[arg(long)]
        name: String,
    },
}

#[derive(Subcommand)]
enum AccountCommand {
    /// Create an account. The password is read from SCOREDESK_PASSWORD if set,
    /// otherwise from standard input (never from an argument, which others can see).
    Add {
        #[arg(long)]
        username: String,
        /// The customer area the account belongs to.
        #[arg(long, required_unless_present = "server_admin")]
        customer: Option<i32>,
        /// An administrator of every customer area.
        #[arg(long, conflicts_with = "customer")]
        server_admin: bool,
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["admin", "scorer", "coordinator", "lead"]))]
        role: String,
    },
    /// Set an account's password, read as for `add`.
    Password {
        #[arg(long)]
        username: String,
    },
}

/// Runs the command line.
pub async fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let mut settings =
        Settings::load(cli.config.as_deref()).context("reading the configuration")?;
    if let Some(url) = cli.database_url {
        settings.database_url = SecretString::from(url);
    }
    telemetry::init(settings.log_format);
    match cli.command {
        Command::Serve { bind } => {
            if let Some(bind) = bind {
                settings.bind = bind;
            }
            let address = settings.bind;
            let app = App::build(settings).await?;
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .with_context(|| format!("binding {address}"))?;
            app.serve(listener, shutdown_signal()).await?;
        }
        Command::Migrate => {
            App::build(settings).await?;
            eprintln!("migrations applied");
        }
        Command::Backup { file } => {
            let url = settings.database_url.expose_secret();
            if !url.starts_with("sqlite:") {
                bail!("{}", crate::store::BackupError::NotSqlite);
            }
            // Connects without migrating: a backup copies the database as it is.
            let store = Store::connect(url).await?;
            let made = store
                .backup_into(&file)
                .await
                .with_context(|| format!("backing up to {}", file.display()))?;
            if made.integrity != "ok" {
                bail!(
                    "the copy at {} fails its integrity check: {}",
                    file.display(),
                    made.integrity
                );
            }
            println!(
                "backup written to {} ({} bytes, integrity ok)",
                file.display(),
                made.bytes
            );
        }
        Command::Seed(args) => {
            let app = App::build(settings).await?;
            if args.demo {
                match seed_demo(app.store(), DemoLogins::Published).await? {
                    DemoOutcome::Seeded { customer_ids } => {
                        println!("demo seeded: customer areas {customer_ids:?}")
                    }
                    DemoOutcome::AlreadyPresent => {
                        println!("demo data already present; nothing changed")
                    }
                }
            } else if let Some(n) = args.exam {
                let (customer, assessment) = crate::seed::exam::seed_exam(app.store(), n).await?;
                println!("exam seeded: customer area {customer}, assessment {assessment}");
            } else if let Some(n) = args.scale {
                let customer = seed_scale(app.store(), n, true).await?;
                println!("scale data seeded: customer area {customer}");
            }
        }
        Command::Customer(CustomerCommand::Add { name }) => {
            let app = App::build(settings).await?;
            println!("{}", app.store().insert_customer(&name).await?);
        }
        Command::Account(AccountCommand::Add {
            username,
            customer,
            server_admin,
            role,
        }) => {
            let role: Role = role.parse().map_err(anyhow::Error::msg)?;
            let password = read_password()?;
            let app = App::build(settings).await?;
            add_account(
                app.store(),
                &username,
                if server_admin { None } else { customer },
                role,
                &password,
            )
            .await?;
            println!("account {username} created");
        }
        Command::Retention(command) => {
            let app = App::build(settings).await?;
            retention(app.store(), command).await?;
        }
        Command::Import(command) => {
            let app = App::build(settings).await?;
            import::run(app.store(), command).await?;
        }
        Command::Sheets(command) => {
            let app = App::build(settings).await?;
            sheets::run(app.store(), command).await?;
        }
        Command::Export(command) => {
            let app = App::build(settings).await?;
            export::run(app.store(), command).await?;
        }
        Command::Account(AccountCommand::Password { username }) => {
            let password = read_password()?;
            let app = App::build(settings).await?;
            app.store()
                .set_password(&username, &hash_password(&password)?)
                .await
                .with_context(|| format!("account {username}"))?;
            println!("password of {username} changed");
        }
    }
    Ok(())
}

async fn add_account(
    store: &Store,
    username: &str,
    customer: Option<i32>,
    role: Role,
    password: &str,
) -> anyhow::Result<()> {
    crate::model::access::check_account_scope(customer, role).map_err(anyhow::Error::msg)?;
    if let Some(customer) = customer {
        if !store.customer_exists(customer).await? {
            bail!("customer area {customer} does not exist");
        }
    }
    let hash = hash_password(password)?;
    store
        .insert_account(NewAccount {
            customer_id: customer,
            username,
            password_hash: &hash,
            role: role.as_str(),
        })
        .await
        .with_context(|| format!("creating account {username}"))?;
    Ok(())
}

fn read_password() -> anyhow::Result<String> {
    if let Ok(password) = std::env::var("SCOREDESK_PASSWORD") {
        return non_empty(password);
    }
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading the password from standard input")?;
    non_empty(input.trim_end_matches(['\r', '\n']).to_owned())
}

fn non_empty(password: String) -> anyhow::Result<String> {
    if password.is_empty() {
        bail!("the password is empty");
    }
    Ok(password)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
    tracing::info!("shutting down");
}

async fn retention(store: &Store, command: RetentionCommand) -> anyhow::Result<()> {
    let customer = match &command {
        RetentionCommand::Set { customer, .. }
        | RetentionCommand::Show { customer }
        | RetentionCommand::Clear { customer } => *customer,
    };
    let area = CustomerArea::new(customer)
        .ok_or_else(|| anyhow::anyhow!("{customer} is not a customer area ID"))?;
    if !store.customer_exists(customer).await? {
        bail!("customer area {customer} does not exist");
    }
    match command {
        RetentionCommand::Set { days, .. } => {
            let days = check_retention_days(days).map_err(anyhow::Error::msg)?;
            store.set_retention(area, Some(days), now_millis()).await?;
            println!("customer area {customer}: results are purged {days} days after they finish");
        }
        RetentionCommand::Show { .. } => match store.retention_days(area).await? {
            Some(days) => println!("{days}"),
            None => println!("customer area {customer} has no retention policy"),
        },
        RetentionCommand::Clear { .. } => {
            store.set_retention(area, None, now_millis()).await?;
            println!("customer area {customer}: retention policy removed");
        }
    }
    Ok(())
}
