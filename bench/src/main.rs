//! `scoredesk-bench`: the OData layer against a bare axum + sqlx handler running the
//! best single SQL statement, on the same SQLite file, loaded by wrk in one run.
//! See docs/benchmarks.md for how to run it and the figures.

mod bare;
mod scoring;
mod wrk;

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use secrecy::SecretString;

use scoredesk_server::auth::hash_password;
use scoredesk_server::config::{sqlite_url, Settings};
use scoredesk_server::store::{NewAccount, Store};
use scoredesk_server::App;

#[derive(Parser)]
#[command(about = "Benchmarks ScoreDesk's OData layer against a bare handler")]
struct Args {
    /// A SQLite file made by `scoredesk-server seed --scale N`.
    #[arg(long)]
    database: PathBuf,
    /// Seconds per wrk run.
    #[arg(long, default_value_t = 10)]
    duration: u32,
    /// Concurrent connections per wrk run.
    #[arg(long, default_value_t = 4)]
    connections: u32,
    /// Where to write the Markdown table of figures.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Concurrent scorers in the scoring round-trip benchmark.
    #[arg(long, default_value_t = 4)]
    scorers: usize,
    /// Run only the scoring round trips, not the read queries against wrk.
    #[arg(long)]
    scoring_only: bool,
}

const USER: &str = "bench-admin";
const PASSWORD: &str = "bench-password";

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Runtime::new()?;
    let (servers, customer) = runtime.block_on(start(&args))?;
    let (ours, theirs) = servers;
    let root = format!("{ours}/deliveryodata/{customer}");
    eprintln!(
        "{}",
        runtime.block_on(bare::explain(&args.database, customer))?
    );
    let mut table = String::new();
    if !args.scoring_only {
        table.push_str(&runtime.block_on(async { protocol_cases(&args, &root, &theirs).await })?);
    }
    eprintln!("measuring: scoring round trips");
    let figures = runtime.block_on(scoring::run(
        &root,
        USER,
        PASSWORD,
        args.scorers,
        std::time::Duration::from_secs(u64::from(args.duration) * 2),
    ))?;
    table.push_str(&format!(
        "\n| scoring round trips ({} requests each) | scorers | round trips | round trips/s | requests/s | p50 | p99 |\n|---|---|---|---|---|---|---|\n\
         | poll, claim, create, {} dimension PUTs, result PUT, set 3 | {} | {} | {:.1} | {:.0} | {:.1} ms | {:.1} ms |\n",
        figures.requests_per_round_trip,
        figures.requests_per_round_trip.saturating_sub(6),
        figures.workers,
        figures.round_trips,
        figures.round_trips_per_second(),
        figures.round_trips_per_second() * figures.requests_per_round_trip as f64,
        figures.p50_ms,
        figures.p99_ms,
    ));
    table.push_str("\n| step of a round trip | mean time per round trip |\n|---|---|\n");
    for (step, ms) in &figures.step_ms {
        table.push_str(&format!("| {step} | {ms:.1} ms |\n"));
    }
    println!("{table}");
    if let Some(out) = args.out {
        std::fs::write(&out, &table).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

/// The read queries, ours against the bare handler, each loaded by wrk.
async fn protocol_cases(args: &Args, root: &str, theirs: &str) -> anyhow::Result<String> {
    let page_1000 = thousandth_page(root).await?;
    let last_id_before_page_1000 = bare::last_id_before(
        &args.database,
        bare::scale_customer(&args.database).await?,
        999 * 100,
    )
    .await?;
    let cases = [
        (
            "Q1 open tasks by Result/WhenFinished desc, top 50, expand Result",
            format!("{root}/ScoringTasks?%24filter=Status%20eq%200&%24orderby=Result%2FWhenFinished%20desc&%24top=50&%24expand=Result"),
            format!("{theirs}/q1"),
        ),
        (
            "Q2 $count of Group-042's open tasks",
            format!("{root}/ScoringTasks/%24count?%24filter=Group%2FName%20eq%20%27Group-042%27%20and%20Status%20eq%200"),
            format!("{theirs}/q2"),
        ),
        ("Results, first page of 100", format!("{root}/Results"), format!("{theirs}/results?after=0")),
        ("Results, 1,000th page of 100", page_1000, format!("{theirs}/results?after={last_id_before_page_1000}")),
    ];
    let mut table = String::from(
        "| query | ScoreDesk req/s | p50 | p99 | bare req/s | p50 | p99 | ScoreDesk / bare |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (name, ours_url, bare_url) in &cases {
        eprintln!("measuring: {name}");
        let ours = wrk::run(
            ours_url,
            Some(&basic_authorization()),
            args.duration,
            args.connections,
        )?;
        let bare = wrk::run(bare_url, None, args.duration, args.connections)?;
        table.push_str(&format!(
            "| {name} | {:.0} | {:.2} ms | {:.2} ms | {:.0} | {:.2} ms | {:.2} ms | {:.2} |\n",
            ours.requests_per_second,
            ours.p50_ms,
            ours.p99_ms,
            bare.requests_per_second,
            bare.p50_ms,
            bare.p99_ms,
            ours.requests_per_second / bare.requests_per_second
        ));
    }
    Ok(table)
}

fn basic_authorization() -> String {
    format!(
        "Basic {}",
        base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("{USER}:{PASSWORD}")
        )
    )
}

/// Starts both servers on free ports; returns their base URLs and the scale area.
async fn start(args: &Args) -> anyhow::Result<((String, String), i32)> {
    let url = sqlite_url(&args.database);
    let store = Store::connect(&url).await?;
    store.migrate().await?;
    let customer = bare::scale_customer(&args.database).await?;
    if store.find_account(USER).await?.is_none() {
        let hash = hash_password(PASSWORD)?;
        store
            .insert_account(NewAccount {
                customer_id: Some(customer),
                username: USER,
                password_hash: &hash,
                role: "admin",
            })
            .await?;
    }
    let settings = Settings {
        database_url: SecretString::from(url),
        ..Settings::default()
    };
    let app = App::with_store(settings, store);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let ours = format!("http://{}", listener.local_addr()?);
    tokio::spawn(app.serve(listener, std::future::pending()));
    let theirs = bare::serve(&args.database, customer).await?;
    Ok(((ours, theirs), customer))
}

/// Follows `odata.nextLink` from the first page of Results to the 1,000th.
async fn thousandth_page(root: &str) -> anyhow::Result<String> {
    let client = reqwest::Client::new();
    let mut url = format!("{root}/Results");
    for _ in 1..1000 {
        let body: serde_json::Value = client
            .get(&url)
            .basic_auth(USER, Some(PASSWORD))
            .send()
            .await?
            .json()
            .await?;
        url = body["odata.nextLink"]
            .as_str()
            .context("fewer than 1,000 pages of results")?
            .to_owned();
    }
    Ok(url)
}
