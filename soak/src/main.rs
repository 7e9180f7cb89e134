//! `scoredesk-soak` (run by `scripts/soak`): the release server in its own
//! process under an hour of mixed load (40 scorers with deliberate 412 races, a
//! fifth of each question's scripts marked twice, blind, and resolved, one in
//! twenty followed by a check script (seed) of the lead's, the markers it
//! pauses released by the lead every minute, 4
//! coordinators delivering on paper and uploading scans, an administrator purging
//! and replaying, readers paging Results in JSON and Atom, a QTI import with the
//! CLI every five minutes, a wrong-password flood three minutes in ten), sampled
//! every 10 s, reconciled against the database at the end and plotted.
//! docs/reliability.md explains it and keeps its figures.

mod actors;
mod checks;
mod client;
mod database;
mod ledger;
mod plots;
mod reconcile;
mod reconcile_marking;
mod reconcile_seeds;
mod recorder;
mod report;
mod sampler;
mod server;
mod setup;
mod verdict;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use reqwest::Method;
use serde_json::json;

use actors::{Load, FLOOD_ADDRESS};
use client::Person;
use ledger::Ledger;
use recorder::Recorder;
use setup::{World, PASSWORD};

#[derive(Parser)]
#[command(about = "An hour of mixed load on the release server, reconciled and plotted")]
struct Args {
    /// The release `scoredesk-server`.
    #[arg(long, required_unless_present = "plot_only")]
    server: Option<PathBuf>,
    /// An empty database: `sqlite:<file>` or a PostgreSQL URL.
    #[arg(long, required_unless_present = "plot_only")]
    database_url: Option<String>,
    /// "SQLite" or "PostgreSQL", for the report and the plots' names.
    #[arg(long)]
    name: String,
    #[arg(long, default_value_t = 60.0)]
    minutes: f64,
    /// Open scoring tasks seeded for the scorers (`seed --scale`).
    #[arg(long, default_value_t = 200_000)]
    tasks: usize,
    /// A QTI package the operator imports every five minutes.
    #[arg(long)]
    qti: Option<PathBuf>,
    /// Where the log, samples and report go.
    #[arg(long)]
    out: PathBuf,
    /// Where the plots go (docs/reliability).
    #[arg(long)]
    plots: PathBuf,
    /// Only draw the plots again from `<out>/samples.jsonl` of an earlier run.
    #[arg(long)]
    plot_only: bool,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.plot_only {
        let samples: Vec<sampler::Sample> =
            std::fs::read_to_string(args.out.join("samples.jsonl"))?
                .lines()
                .map(serde_json::from_str)
                .collect::<Result<_, _>>()?;
        let prefix = format!("soak-{}", args.name.to_lowercase());
        for plot in plots::draw(&args.plots, &prefix, &samples)? {
            println!("{}", plot.display());
        }
        return Ok(());
    }
    let runtime = tokio::runtime::Runtime::new()?;
    let passed = runtime.block_on(soak(&args))?;
    if !passed {
        anyhow::bail!(
            "the soak failed: see {}",
            args.out.join("report.md").display()
        );
    }
    Ok(())
}

async fn soak(args: &Args) -> anyhow::Result<bool> {
    let (Some(binary), Some(database_url)) = (&args.server, &args.database_url) else {
        anyhow::bail!("--server and --database-url are needed to run the soak");
    };
    std::fs::create_dir_all(&args.out)?;
    std::fs::create_dir_all(&args.plots)?;
    eprintln!("setting up: {} tasks", args.tasks);
    let store = scoredesk_server::store::Store::connect(database_url).await?;
    let world = setup::make(&store, args.tasks).await?;
    drop(store);
    let server = Arc::new(server::Server::start(binary, database_url, &args.out).await?);
    let root = format!("{}/deliveryodata/{}", server.base, world.customer);
    let recorder = Arc::new(Recorder::default());
    let person =
        |user: &str, address: &str| Person::new(&root, user, PASSWORD, address, recorder.clone());
    let admin = person(setup::ADMIN, "198.51.100.200");
    let delivery = Arc::new(deliver(&admin, world.clone()).await?);
    // The seeds first: a plan would keep some of the lead's scripts for a
    // second marking, and a seed is made of a script at 3.
    let lead = person(setup::LEAD, "198.51.100.210");
    let questions = questions_with_rubric(&admin).await?;
    let seeds = actors::lead::make_seeds(&lead, &questions).await?;
    plan_marking(&admin, &questions).await;
    let copies_after = admin
        .get(
            "setup",
            "Results?$orderby=ID desc&$top=1&$select=ID",
            &[200],
        )
        .await
        .json()["value"][0]["ID"]
        .as_i64()
        .context("the newest result")?;
    let load = Arc::new(Load {
        ledger: Ledger::default(),
        recorder: recorder.clone(),
        stopping: AtomicBool::new(false),
        started: Instant::now(),
        copies_after,
    });
    actors::lead::record(&load.ledger, &seeds);
    let mut actors = Vec::new();
    // Five scorers share the flood's address, as a school's markers share one.
    let scorer_address = |n: usize| {
        if n < 5 {
            FLOOD_ADDRESS.to_owned()
        } else {
            format!("198.51.100.{}", n + 1)
        }
    };
    for n in 0..setup::SCORERS {
        let me = person(&setup::scorer(n), &scorer_address(n));
        let rival_n = (n + 1) % setup::SCORERS;
        let rival = person(&setup::scorer(rival_n), &scorer_address(rival_n));
        actors.push(tokio::spawn(actors::scorer::run(
            load.clone(),
            me,
            rival,
            n,
            setup::SCORERS,
        )));
    }
    for n in 0..setup::COORDINATORS {
        let me = person(&setup::coordinator(n), &format!("198.51.100.{}", 100 + n));
        actors.push(tokio::spawn(actors::coordinator::run(
            load.clone(),
            me,
            delivery.clone(),
            n,
        )));
    }
    for n in 0..setup::READERS {
        let me = person(&setup::reader(n), &format!("198.51.100.{}", 150 + n));
        actors.push(tokio::spawn(actors::reader::run(load.clone(), me, n == 1)));
    }
    actors.push(tokio::spawn(actors::admin::run(
        load.clone(),
        admin.clone(),
    )));
    actors.push(tokio::spawn(actors::lead::run(load.clone(), lead.clone())));
    for _ in 0..actors::flood::CLIENTS {
        actors.push(tokio::spawn(actors::flood::run(
            load.clone(),
            person("nobody", FLOOD_ADDRESS),
        )));
    }
    actors.push(tokio::spawn(actors::newcomer::run(
        load.clone(),
        admin.clone(),
    )));
    if let Some(package) = &args.qti {
        actors.push(tokio::spawn(actors::importer::run(
            load.clone(),
            server.clone(),
            package.clone(),
        )));
    }
    let metrics = Person::new(
        &server.base,
        setup::METRICS,
        PASSWORD,
        "198.51.100.201",
        recorder.clone(),
    );
    let database = Arc::new(database::Database::connect(database_url).await?);
    let sampler = tokio::spawn({
        let (load, database, out) = (load.clone(), database.clone(), args.out.clone());
        let pid = server.pid();
        async move { sampler::run(load, pid, metrics, database, &out).await }
    });
    let minutes = args.minutes;
    let mut reported = 0;
    while load.started.elapsed() < Duration::from_secs_f64(minutes * 60.0) {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let minute = load.started.elapsed().as_secs() / 60;
        if minute > reported {
            reported = minute;
            let (failures, _) = recorder.failures();
            eprintln!(
                "minute {minute}: {} scored, {} double-marked, {} check scripts, {} uploaded, {} purged, {failures} failures",
                ledger::lock(&load.ledger.scored).len(),
                ledger::lock(&load.ledger.markings).len(),
                ledger::lock(&load.ledger.copies_scored).len(),
                ledger::lock(&load.ledger.uploads).len(),
                ledger::lock(&load.ledger.purged).len(),
            );
        }
    }
    load.stopping.store(true, Ordering::Relaxed);
    for actor in actors {
        if tokio::time::timeout(Duration::from_secs(120), actor)
            .await
            .is_err()
        {
            recorder.fail("an actor did not stop within 120 s".into());
        }
    }
    let samples = sampler.await??;
    let server =
        Arc::try_unwrap(server).map_err(|_| anyhow::anyhow!("the server is still shared"))?;
    server.stop()?;
    let checks = reconcile::run(&database, &world, &load.ledger).await?;
    let (failures, kept) = recorder.failures();
    let verdict = verdict::judge(&samples, minutes, failures, &checks);
    let plots = plots::draw(
        &args.plots,
        &format!("soak-{}", args.name.to_lowercase()),
        &samples,
    )?;
    let text = report::write(
        &args.name,
        minutes,
        &world,
        &samples,
        &recorder.totals(),
        &verdict,
        &kept,
        &plots,
    );
    std::fs::write(args.out.join("report.md"), &text)?;
    println!("{text}");
    Ok(verdict.iter().all(|c| c.passed))
}

/// The questions with a rubric (the scale seed's).
async fn questions_with_rubric(admin: &Person) -> anyhow::Result<Vec<serde_json::Value>> {
    let questions = admin
        .get(
            "setup",
            "Questions?$filter=Rubric/any()&$select=QuestionID&$top=100",
            &[200],
        )
        .await
        .json();
    let questions = questions["value"]
        .as_array()
        .context("the questions")?
        .clone();
    anyhow::ensure!(!questions.is_empty(), "no question with a rubric to plan");
    Ok(questions)
}

/// A plan for every question: a share of its scripts marked twice, a third
/// marking beyond the tolerance, and a seed served now and then.
async fn plan_marking(admin: &Person, questions: &[serde_json::Value]) {
    for question in questions {
        admin
            .json(
                "setup",
                Method::POST,
                "MarkingPlans",
                &json!({
                    "QuestionID": question["QuestionID"],
                    "Share": setup::MARKING_SHARE,
                    "Tolerance": setup::MARKING_TOLERANCE,
                    "Rule": "resolution",
                    "SeedRate": setup::SEED_RATE,
                    "SeedTolerance": setup::SEED_TOLERANCE,
                }),
                &[201],
            )
            .await;
    }
}

/// The upload assessment's snapshot and print batch, made through the API.
async fn deliver(admin: &Person, world: World) -> anyhow::Result<actors::coordinator::Delivery> {
    let snapshot = admin
        .json(
            "setup",
            Method::POST,
            "AssessmentSnapshots",
            &json!({"AssessmentID": world.upload_assessment.to_string()}),
            &[201],
        )
        .await
        .json()["ID"]
        .as_i64()
        .context("the snapshot's ID")?;
    let batch = admin
        .json(
            "setup",
            Method::POST,
            "PrintBatches",
            &json!({"GroupID": world.upload_group, "SnapshotID": snapshot}),
            &[201],
        )
        .await
        .json()["ID"]
        .as_i64()
        .context("the print batch's ID")?;
    Ok(actors::coordinator::Delivery {
        world,
        snapshot,
        batch,
        scans: actors::coordinator::Scans::make()?,
    })
}
