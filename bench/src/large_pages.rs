//! Large pages, read one at a time: the time to the first byte, the time to the
//! last, the document's size, and the most heap the process held meanwhile beyond
//! what it held before (peakmem-alloc, the bench's allocator; the client reads the body chunk by chunk and keeps
//! none of it). Feeds are written as the client reads them (`odata::chunks`), so
//! what a page needs is its entities' values, not its text as well.

use std::time::Instant;

use peakmem_alloc::PeakMemAllocTrait;

use crate::ALLOCATOR;

pub struct Figures {
    pub name: String,
    pub bytes: usize,
    pub first_byte_ms: f64,
    pub total_ms: f64,
    pub peak_heap: usize,
}

const READS: usize = 9;

pub async fn run(root: &str, user: &str, password: &str) -> anyhow::Result<Vec<Figures>> {
    let results = "Results?%24expand=ScoringTasks%2FScoringResult%2CAnswers";
    // A page of 100 tasks with each of its six navigations expanded.
    let tasks =
        "ScoringTasks?%24expand=Result%2CQuestion%2CAnswer%2CGroup%2CAssessment%2CScoringResult";
    let cases = [
        (
            "Results, a page of 100 expanded to their tasks, ScoringResults and answers, JSON light",
            format!("{root}/{results}"),
        ),
        ("the same page in Atom", format!("{root}/{results}&%24format=atom")),
        (
            "ScoringTasks, a page of 100 expanded six ways, JSON light",
            format!("{root}/{tasks}"),
        ),
        ("the same page in Atom", format!("{root}/{tasks}&%24format=atom")),
    ];
    let client = reqwest::Client::new();
    let mut figures = Vec::new();
    for (name, url) in cases {
        eprintln!("measuring: {name}");
        read(&client, &url, user, password).await?;
        let mut reads = Vec::with_capacity(READS);
        for _ in 0..READS {
            ALLOCATOR.reset_peak_memory();
            let read = read(&client, &url, user, password).await;
            let peak = ALLOCATOR.get_peak_memory();
            let (bytes, first_byte_ms, total_ms) = read?;
            reads.push((bytes, first_byte_ms, total_ms, peak));
        }
        let median = |pick: fn(&(usize, f64, f64, usize)) -> f64| {
            let mut values: Vec<f64> = reads.iter().map(pick).collect();
            values.sort_by(f64::total_cmp);
            values[values.len() / 2]
        };
        figures.push(Figures {
            name: name.to_owned(),
            bytes: reads[0].0,
            first_byte_ms: median(|r| r.1),
            total_ms: median(|r| r.2),
            peak_heap: median(|r| r.3 as f64) as usize,
        });
    }
    Ok(figures)
}

/// One read: the body's length, the milliseconds to its first chunk and to its end.
async fn read(
    client: &reqwest::Client,
    url: &str,
    user: &str,
    password: &str,
) -> anyhow::Result<(usize, f64, f64)> {
    let started = Instant::now();
    let mut response = client
        .get(url)
        .basic_auth(user, Some(password))
        .send()
        .await?
        .error_for_status()?;
    let mut bytes = 0;
    let mut first_byte_ms = None;
    while let Some(chunk) = response.chunk().await? {
        first_byte_ms.get_or_insert_with(|| started.elapsed().as_secs_f64() * 1000.0);
        bytes += chunk.len();
    }
    let total_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok((bytes, first_byte_ms.unwrap_or(total_ms), total_ms))
}
