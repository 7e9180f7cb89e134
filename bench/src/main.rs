//! `scoredesk-bench`: the OData layer against a bare axum + sqlx handler running the
//! best single SQL statement, on the same database, loaded by wrk in one run, and
//! scoring round trips through the API; on SQLite and on PostgreSQL, side by side.
//! See docs/benchmarks.md for how to run it and the figures.

mod bare;
mod copy;
mod large_pages;
mod plans;
mod polling;
mod processes;
mod purges;
mod report;
mod scoring;
mod serve_only;
mod sheets;
mod uploads;
mod wrk;

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use mimalloc::MiMalloc;
use peakmem_alloc::PeakMemAlloc;
use secrecy::SecretString;

use scoredesk_server::auth::hash_password;
use scoredesk_server::config::Settings;
use scoredesk_server::store::{NewAccount, Store};
use scoredesk_server::App;

#[derive(Parser)]
#[command(
    about = "Benchmarks ScoreDesk's OData layer against a bare handler, on SQLite and PostgreSQL"
)]
struct Args {
    /// A SQLite file made by `scoredesk-server seed --scale N`.
    #[arg(long)]
    sqlite: Option<PathBuf>,
    /// A PostgreSQL database made by `seed --scale N` (its URL).
    #[arg(long)]
    postgres: Option<String>,
    /// Seconds each side of a read is loaded for, in turns with the other.
    #[arg(long, default_value_t = 10)]
    duration: u32,
    /// Concurrent connections per wrk run.
    #[arg(long, default_value_t = 4)]
    connections: u32,
    /// Where to write the Markdown tables of figures.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Concurrent scorers in the scoring round-trip benchmark.
    #[arg(long, default_value_t = 4)]
    scorers: usize,
    /// Tasks the scorers score between them in the round-trip benchmark.
    #[arg(long, default_value_t = 20_000)]
    tasks: usize,
    /// Tasks scored first and not measured: the database copy starts cold (its pages
    /// are read from disk the first time), which is not the decay looked for.
    #[arg(long, default_value_t = 1_000)]
    warm_up: usize,
    /// Run only the scoring round trips, not the read queries against wrk.
    #[arg(long)]
    scoring_only: bool,
    /// Answer uploads (50-question files) to post in the upload benchmark; 0 for none.
    #[arg(long, default_value_t = 5_000)]
    uploads: usize,
    /// Clients posting uploads at once.
    #[arg(long, default_value_t = 8)]
    uploaders: usize,
    /// Run only the upload benchmark.
    #[arg(long)]
    uploads_only: bool,
    /// Purge one assessment's results (about 100,000) after the rest; 0 for none.
    #[arg(long, default_value_t = 1)]
    purge: u8,
    /// Run only the purge benchmark.
    #[arg(long)]
    purge_only: bool,
    /// Run only the read queries against wrk (JSON and Atom), and the large pages.
    #[arg(long)]
    reads_only: bool,
    /// Run only the large pages (first byte, last byte, heap).
    #[arg(long)]
    large_pages_only: bool,
    /// Instead of everything else: answer-sheet recognition over the corpus of
    /// scans in DIR (scripts/bench --sheets writes it).
    #[arg(long, value_name = "DIR")]
    sheets: Option<PathBuf>,
    /// Instead of everything else: the scoring round trips on PostgreSQL with the
    /// scorers spread over this many `scoredesk-server` processes, once per count
    /// (such as 1,2,3). Needs --postgres and --server.
    #[arg(long, value_delimiter = ',')]
    processes: Vec<usize>,
    /// The `scoredesk-server` binary that --processes runs.
    #[arg(long)]
    server: Option<PathBuf>,
    /// Instead of measuring: start ours and the bare handler on a copy of the one
    /// database given, print their roots (`ours=...`, `bare=...`) and serve until
    /// killed, so that a profiler can watch both in this one process
    /// (`scripts/profile --beside-bare`).
    #[arg(long)]
    serve_only: bool,
}

/// The server binary's allocator (mimalloc), counting the heap's peak for
/// large_pages.rs: two atomic operations an allocation, for our server and the bare
/// handler alike.
#[global_allocator]
static ALLOCATOR: PeakMemAlloc<MiMalloc> = PeakMemAlloc::new(MiMalloc);

const USER: &str = "bench-admin";
const PASSWORD: &str = "bench-password";

/// The figures of one database.
struct Measured {
    name: &'static str,
    /// ScoreDesk's plans of the read forms, as Markdown.
    plans: String,
    reads: Vec<(String, wrk::Figures, wrk::Figures)>,
    large_pages: Vec<large_pages::Figures>,
    scoring: Option<scoring::Figures>,
    uploads: Option<uploads::Figures>,
    purge: Option<purges::Figures>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    // RUST_LOG=sqlx::query=debug shows each statement with its time; nothing by default.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    if let Some(dir) = &args.sheets {
        let table = sheets::run(dir)?;
        println!("{table}");
        if let Some(out) = args.out {
            std::fs::write(&out, &table).with_context(|| format!("writing {}", out.display()))?;
        }
        return Ok(());
    }
    let runtime = tokio::runtime::Runtime::new()?;
    if !args.processes.is_empty() {
        return runtime.block_on(several_processes(&args));
    }
    anyhow::ensure!(
        args.sqlite.is_some() || args.postgres.is_some(),
        "give --sqlite FILE, --postgres URL or both"
    );
    if args.serve_only {
        return runtime.block_on(serve_only::run(
            args.sqlite.as_deref(),
            args.postgres.as_deref(),
        ));
    }
    // Each database is copied just before it is measured: the writes of a copy
    // (and PostgreSQL's checkpoint after it) would otherwise run during the other
    // database's measurement on the same disk (run F's slow SQLite figures).
    let mut measured = Vec::new();
    if let Some(file) = &args.sqlite {
        eprintln!("== SQLite");
        let url = runtime.block_on(copy::sqlite(file))?;
        measured.push(runtime.block_on(measure(&args, "SQLite", &url))?);
    }
    if let Some(url) = &args.postgres {
        eprintln!("== PostgreSQL");
        let url = runtime.block_on(copy::postgres(url))?;
        measured.push(runtime.block_on(measure(&args, "PostgreSQL", &url))?);
    }
    let table = report::tables(&measured);
    println!("{table}");
    if let Some(out) = args.out {
        std::fs::write(&out, &table).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

/// Every measurement on the database at `url` (a copy made for this run).
async fn measure(args: &Args, name: &'static str, url: &str) -> anyhow::Result<Measured> {
    let (ours, theirs, customer, database, store) = start(url).await?;
    settle(&database).await?;
    let root = format!("{ours}/deliveryodata/{customer}");
    eprintln!("{}", bare::explain(&database, customer).await?);
    let plans = plans::explain(&store, customer, name).await?;
    let only_one =
        args.scoring_only || args.uploads_only || args.purge_only || args.large_pages_only;
    let reads = if only_one {
        Vec::new()
    } else {
        protocol_cases(args, &root, &theirs, &database, customer).await?
    };
    let large_pages = if only_one && !args.large_pages_only {
        Vec::new()
    } else {
        large_pages::run(&root, USER, PASSWORD).await?
    };
    let only_reads = args.reads_only || args.large_pages_only;
    let scoring = if args.uploads_only || args.purge_only || only_reads {
        None
    } else {
        Some(scoring_round_trips(args, &root).await?)
    };
    let uploads = if args.uploads > 0 && !args.scoring_only && !args.purge_only && !only_reads {
        eprintln!("measuring: {} answer uploads", args.uploads);
        let files = uploads::prepare(&store, &root, USER, PASSWORD, customer, args.uploads).await?;
        let poll = format!("{root}/ScoringTasks?%24filter=Status%20eq%200&%24orderby=Result%2FWhenFinished%20desc&%24top=50&%24expand=Result");
        Some(uploads::run(&root, USER, PASSWORD, files, args.uploaders, &poll).await?)
    } else {
        None
    };
    let purge = if args.purge > 0 && !args.scoring_only && !args.uploads_only && !only_reads {
        eprintln!("measuring: a purge of one assessment's results");
        let poll = format!("{root}/ScoringTasks?%24filter=Status%20eq%200&%24orderby=Result%2FWhenFinished%20desc&%24top=50&%24expand=Result");
        Some(purges::run(&root, USER, PASSWORD, &database, &poll).await?)
    } else {
        None
    };
    Ok(Measured {
        name,
        plans,
        reads,
        large_pages,
        scoring,
        uploads,
        purge,
    })
}

/// Writes out what the copy and its migrations left in the WAL and the page
/// cache, so that no checkpoint or writeback of them runs during a measurement.
async fn settle(database: &bare::Database) -> anyhow::Result<()> {
    match database {
        bare::Database::Sqlite(pool) => {
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(pool)
                .await?;
        }
        bare::Database::Postgres(pool) => {
            sqlx::query("CHECKPOINT").execute(pool).await?;
        }
    }
    let synced = std::process::Command::new("sync").status()?;
    anyhow::ensure!(synced.success(), "sync failed");
    Ok(())
}

async fn scoring_round_trips(args: &Args, root: &str) -> anyhow::Result<scoring::Figures> {
    let roots = [root.to_owned()];
    let limit = std::time::Duration::from_secs(30 * 60);
    if args.warm_up > 0 {
        eprintln!("warming up: {} tasks scored, not measured", args.warm_up);
        scoring::run(&roots, USER, PASSWORD, args.scorers, args.warm_up, limit).await?;
    }
    eprintln!(
        "measuring: scoring round trips until {} tasks are scored",
        args.tasks
    );
    scoring::run(&roots, USER, PASSWORD, args.scorers, args.tasks, limit).await
}

/// The scoring round trips with the scorers spread over several server processes
/// on a copy of the PostgreSQL database.
async fn several_processes(args: &Args) -> anyhow::Result<()> {
    let (Some(url), Some(server)) = (&args.postgres, &args.server) else {
        anyhow::bail!("--processes needs --postgres URL and --server PATH");
    };
    let url = copy::postgres(url).await?;
    let (_, _, customer, _, _) = start(&url).await?;
    let load = processes::Load {
        user: USER,
        password: PASSWORD,
        scorers: args.scorers,
        tasks: args.tasks,
        warm_up: args.warm_up,
    };
    let runs = processes::run(server, &url, customer, &args.processes, &load).await?;
    let table = report::processes(&runs);
    println!("{table}");
    if let Some(out) = &args.out {
        std::fs::write(out, &table).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

/// The read queries, ours against the bare handler, each loaded by wrk.
async fn protocol_cases(
    args: &Args,
    root: &str,
    theirs: &str,
    database: &bare::Database,
    customer: i32,
) -> anyhow::Result<Vec<(String, wrk::Figures, wrk::Figures)>> {
    let page_1000 = thousandth_page(root).await?;
    let last_id_before_page_1000 = bare::last_id_before(database, customer, 999 * 100).await?;
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
        (
            "Q1 in Atom (`$format=atom`)",
            format!("{root}/ScoringTasks?%24filter=Status%20eq%200&%24orderby=Result%2FWhenFinished%20desc&%24top=50&%24expand=Result&%24format=atom"),
            format!("{theirs}/q1"),
        ),
        ("Results, first page of 100", format!("{root}/Results"), format!("{theirs}/results?after=0")),
        (
            "Results, first page of 100, in Atom",
            format!("{root}/Results?%24format=atom"),
            format!("{theirs}/results?after=0"),
        ),
        ("Results, 1,000th page of 100", page_1000, format!("{theirs}/results?after={last_id_before_page_1000}")),
    ];
    let mut figures = Vec::new();
    for (name, ours_url, bare_url) in &cases {
        eprintln!("measuring: {name}");
        let authorization = basic_authorization();
        let (ours, bare) = wrk::run_in_turns(
            &wrk::Target {
                url: ours_url,
                authorization: Some(&authorization),
            },
            &wrk::Target {
                url: bare_url,
                authorization: None,
            },
            args.duration,
            args.connections,
        )?;
        figures.push(((*name).to_owned(), ours, bare));
    }
    Ok(figures)
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

/// Starts both servers on free ports; returns their base URLs, the scale area, the
/// bare handler's database and ScoreDesk's store.
async fn start(url: &str) -> anyhow::Result<(String, String, i32, bare::Database, Store)> {
    let store = Store::connect(url).await?;
    store.migrate().await?;
    let database = bare::Database::connect(url).await?;
    let customer = bare::scale_customer(&database).await?;
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
        database_url: SecretString::from(url.to_owned()),
        ..Settings::default()
    };
    let app = App::with_store(settings, store.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let ours = format!("http://{}", listener.local_addr()?);
    tokio::spawn(app.serve(listener, std::future::pending()));
    let theirs = bare::serve(database.clone(), customer).await?;
    Ok((ours, theirs, customer, database, store))
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
