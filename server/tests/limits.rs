//! The limits that keep the server process alive under hostile clients, measured on
//! the real binary as an operator runs it: a flood of wrong passwords, failed
//! sign-ins per account and per address, clients that never finish their headers,
//! and requests that never finish their bodies.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod support;

use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use support::{add_account, add_scorer, area_with_account, Server};

const PASSWORD: &str = "the right password";

/// Held by the tests that flood, one at a time: each measures times and memory
/// that another's flood on the same two cores would distort.
static FLOODING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn sqlite(dir: &tempfile::TempDir) -> String {
    format!("sqlite:{}", dir.path().join("limits.db").display())
}

/// A GET of the area's service root as `username`; the status and how long it took.
async fn sign_in(
    client: &reqwest::Client,
    root: &str,
    username: &str,
    password: &str,
) -> (StatusCode, Duration, Option<String>) {
    let started = Instant::now();
    let response = client
        .get(root)
        .basic_auth(username, Some(password))
        .send()
        .await
        .unwrap();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (response.status(), started.elapsed(), retry_after)
}

/// 960 wrong sign-ins over 64 connections of `client`, every other one for
/// `target` and the rest for made-up names, each with `password(i)`; then 30
/// sign-ins of `working` (as `name`) 50 ms apart meanwhile. The flood's answers
/// (checked: 401, refused: 429, each refusal with `Retry-After`), and the
/// working client's statuses.
async fn flood_while_working(
    client: &reqwest::Client,
    root: &str,
    target: &str,
    password: impl Fn(usize) -> String,
    working: (&reqwest::Client, &str),
) -> (usize, usize, Vec<StatusCode>) {
    let flooding = futures::stream::iter(0..960)
        .map(|i| {
            let name = if i % 2 == 0 {
                target.to_owned()
            } else {
                format!("x{i}")
            };
            let guess = password(i);
            async move { sign_in(client, root, &name, &guess).await }
        })
        .buffer_unordered(64)
        .collect::<Vec<_>>();
    let (client_working, name) = working;
    let working = async {
        let mut answers = Vec::new();
        for _ in 0..30 {
            answers.push(sign_in(client_working, root, name, PASSWORD).await.0);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        answers
    };
    let (flooded, worked) = tokio::join!(flooding, working);
    let refused = flooded
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .count();
    let checked = flooded
        .iter()
        .filter(|(status, _, _)| *status == 401)
        .count();
    assert_eq!(refused + checked, flooded.len(), "only 401 and 429");
    assert!(flooded
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .all(|(_, _, retry)| retry.is_some()));
    (refused, checked, worked)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_of_wrong_passwords_is_refused_in_bounded_memory_while_signed_in_clients_work() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    // Failure limits out of the way: what is measured here is the bound on password
    // checks in flight, which holds whatever the failures.
    let config = "password_checks_at_once = 2\npassword_checks_waiting = 8\n\
                  failed_sign_ins_per_account = 1000000\nfailed_sign_ins_per_address = 1000000\n";
    let (server, base) = Server::start(&database, config, dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    let signed_in = reqwest::Client::new();
    assert_eq!(sign_in(&signed_in, &root, "known", PASSWORD).await.0, 200);

    // A known name and an unknown one take the same time to be refused.
    let probe = reqwest::Client::new();
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for round in 0..15 {
        let (status, time, _) = sign_in(&probe, &root, "known", "a wrong guess").await;
        assert_eq!(status, 401);
        known.push(time);
        let (status, time, _) = sign_in(&probe, &root, &format!("nobody-{round}"), "a guess").await;
        assert_eq!(status, 401);
        unknown.push(time);
    }
    let (known, unknown) = (median(known), median(unknown));
    let ratio = known.as_secs_f64() / unknown.as_secs_f64();
    assert!(
        (0.5..2.0).contains(&ratio),
        "known names answer in {known:?}, unknown ones in {unknown:?}: an outsider can tell them apart"
    );

    // The flood: 64 connections at once, wrong passwords for a known and unknown names.
    let flood = reqwest::Client::new();
    let (refused, checked, worked) = flood_while_working(
        &flood,
        &root,
        "known",
        |_| "guess".to_owned(),
        (&signed_in, "known"),
    )
    .await;
    assert!(
        worked.iter().all(|status| *status == 200),
        "signed-in requests keep answering: {worked:?}"
    );
    assert!(
        refused > 0 && checked > 0,
        "{refused} refused at once, {checked} checked"
    );
    let peak = server.peak_memory();
    eprintln!(
        "flood: {refused} refused at once, {checked} checked; peak {} MB, {} threads; \
         refusal medians known {known:?}, unknown {unknown:?}",
        peak / 1024 / 1024,
        server.threads()
    );
    assert!(
        peak < 150 * 1024 * 1024,
        "the server held {} MB at its peak",
        peak / 1024 / 1024
    );
    // Tokio's workers (one per core), SQLite's connection threads, the two
    // password-check threads: nothing that grows with the flood.
    let cores = std::thread::available_parallelism().map_or(2, usize::from) as u64;
    assert!(
        server.threads() < 2 * cores + 24,
        "{} threads",
        server.threads()
    );
}

/// A client whose connections come from `address` (any of 127.0.0.0/8 is this machine).
fn client_from(address: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(address))
        .build()
        .unwrap()
}

/// Signs in `client` as `username` and asserts the status.
async fn expect(client: &reqwest::Client, root: &str, username: &str, password: &str, status: u16) {
    let (got, took, _) = sign_in(client, root, username, password).await;
    assert_eq!(got, status, "{username} with '{password}' after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guesses_lock_an_account_only_from_where_they_came_and_never_its_signed_in_owner() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    let config = "failed_sign_ins_per_account = 4\nfailed_sign_ins_per_address = 1000\n\
                  failed_sign_in_window_seconds = 60\n";
    let (_server, base) = Server::start(&database, config, dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    // The owner signed in from elsewhere, and again from the guesser's own address
    // (a shared school address), before the guessing began.
    let owner_elsewhere = client_from([127, 0, 0, 2]);
    expect(&owner_elsewhere, &root, "known", PASSWORD, 200).await;
    let owner_here = client_from([127, 0, 0, 1]);
    expect(&owner_here, &root, "known", PASSWORD, 200).await;

    let guesser = client_from([127, 0, 0, 1]);
    for _ in 0..4 {
        expect(&guesser, &root, "known", "wrong", 401).await;
    }
    let (status, _, retry) = sign_in(&guesser, &root, "known", "wrong").await;
    assert_eq!(
        status, 429,
        "the account's limit from this address is reached"
    );
    let retry: u64 = retry.unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    expect(
        &guesser,
        &root,
        "known",
        "a right guess is not checked",
        429,
    )
    .await;
    // Refused attempts: 2 of the 4 that close the pair to remembered sessions.
    expect(&owner_here, &root, "known", PASSWORD, 200).await;
    expect(&owner_elsewhere, &root, "known", PASSWORD, 200).await;

    // A new address is not locked: it waits a bounded delay, then is checked.
    let new_address = client_from([127, 0, 0, 3]);
    let (status, took, _) = sign_in(&new_address, &root, "known", PASSWORD).await;
    assert_eq!(status, 200, "the owner from a new address after {took:?}");
    assert!(
        took >= Duration::from_millis(2900) && took < Duration::from_secs(10),
        "a new address waits the bounded delay: {took:?}"
    );

    // Guessing on from the shared address closes the pair at twice the limit: then
    // the owner's session there waits too, and only there.
    for _ in 0..2 {
        expect(&guesser, &root, "known", "wrong", 429).await;
    }
    expect(&owner_here, &root, "known", PASSWORD, 429).await;
    expect(&owner_elsewhere, &root, "known", PASSWORD, 200).await;
    expect(&new_address, &root, "known", PASSWORD, 200).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_from_a_shared_address_serves_everyone_signed_in_before_during_and_after() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "victim", PASSWORD);
    for name in ["before", "during", "after"] {
        add_scorer(&database, area, name, PASSWORD);
    }
    // The defaults, but for the line of password checks, kept small to press on it.
    let config = "password_checks_at_once = 2\npassword_checks_waiting = 8\n";
    let (server, base) = Server::start(&database, config, dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    let school = [127, 0, 0, 1];
    let before = client_from(school);
    expect(&before, &root, "before", PASSWORD, 200).await;

    let flood = client_from(school);
    let arriving = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let during = client_from([127, 0, 0, 2]);
        sign_in(&during, &root, "during", PASSWORD).await
    };
    let flooding = flood_while_working(
        &flood,
        &root,
        "victim",
        |i| format!("guess-{i}"),
        (&before, "before"),
    );
    let ((refused, checked, worked), (arrived, arrival_took, _)) = tokio::join!(flooding, arriving);
    assert!(
        worked.iter().all(|status| *status == 200),
        "signed in before the flood, at the flooding address: {worked:?}"
    );
    assert_eq!(arrived, 200, "signing in from elsewhere during the flood");
    assert!(arrival_took < Duration::from_secs(3), "{arrival_took:?}");
    assert!(
        checked <= 120,
        "the flood's guesses were limited: {checked} checked, {refused} refused"
    );

    // After the flood, a new sign-in from the flooding address is served within the
    // address's spacing, not at the window's end.
    let after = client_from(school);
    let (status, took, _) = sign_in(&after, &root, "after", PASSWORD).await;
    assert_eq!(
        status, 200,
        "signing in from the flooding address after it, {took:?}"
    );
    assert!(took < Duration::from_secs(8), "{took:?}");
    let peak = server.peak_memory();
    eprintln!(
        "shared-address flood: {checked} checked, {refused} refused; a new address signed \
         in in {arrival_took:?} during it, the flooding one in {took:?} after; peak {} MB",
        peak / 1024 / 1024
    );
    assert!(
        peak < 150 * 1024 * 1024,
        "{} MB at the peak",
        peak / 1024 / 1024
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unknown_names_from_many_addresses_do_not_starve_a_real_sign_in() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "real", PASSWORD);
    let config = "password_checks_at_once = 2\npassword_checks_waiting = 8\n";
    let (_server, base) = Server::start(&database, config, dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    // One wrong password first, so that a hash has been timed.
    expect(&client_from([127, 0, 0, 250]), &root, "real", "wrong", 401).await;
    let stop = Instant::now() + Duration::from_secs(6);
    let root_ref = &root;
    let flood = futures::future::join_all((0..64u8).map(|n| async move {
        let client = client_from([127, 0, 1, n]);
        let mut sent = 0u32;
        while Instant::now() < stop {
            sign_in(&client, root_ref, &format!("nobody-{n}-{sent}"), "guess").await;
            sent += 1;
        }
        sent
    }));
    let real = async {
        let mut times = Vec::new();
        for round in 0..8u8 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let client = client_from([127, 0, 2, round]);
            let (status, took, _) = sign_in(&client, &root, "real", PASSWORD).await;
            assert_eq!(status, 200, "round {round} after {took:?}");
            times.push(took);
        }
        times
    };
    let (sent, times) = tokio::join!(flood, real);
    let slowest = times.iter().max().copied().unwrap();
    eprintln!(
        "{} unknown names from 64 addresses; new sign-ins took {times:?}",
        sent.iter().sum::<u32>()
    );
    assert!(
        slowest < Duration::from_secs(2),
        "a new sign-in waited {slowest:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    let limits = "failed_sign_ins_per_account = 3\nfailed_sign_ins_per_address = 1000\n";
    let forwarded = |client: &reqwest::Client, root: &str, password: &str, from: &str| {
        client
            .get(root)
            .basic_auth("known", Some(password))
            .header("X-Forwarded-For", from)
            .send()
    };
    // No trusted proxy: a guesser who makes up forwarding headers is still itself.
    let (_server, base) = Server::start(&database, limits, dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    let guesser = client_from([127, 0, 0, 1]);
    let mut statuses = Vec::new();
    for n in 0..5 {
        let from = format!("198.51.100.{n}");
        statuses.push(
            forwarded(&guesser, &root, "wrong", &from)
                .await
                .unwrap()
                .status(),
        );
    }
    assert_eq!(statuses, [401, 401, 401, 429, 429]);
    drop(_server);

    // Behind a trusted proxy, each client behind it is counted as itself.
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    let config = format!("{limits}trusted_proxies = [\"127.0.0.0/8\"]\n");
    let (_server, base) = Server::start(&database, &config, dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    let proxy = client_from([127, 0, 0, 1]);
    for _ in 0..3 {
        let status = forwarded(&proxy, &root, "wrong", "203.0.113.5")
            .await
            .unwrap()
            .status();
        assert_eq!(status, 401);
    }
    let status = forwarded(&proxy, &root, "wrong", "203.0.113.5")
        .await
        .unwrap()
        .status();
    assert_eq!(status, 429, "the guesser behind the proxy");
    let owner = forwarded(&proxy, &root, PASSWORD, "203.0.113.6")
        .await
        .unwrap();
    assert_eq!(owner.status(), 200, "another client behind the same proxy");
    // Only what the trusted proxy appended counts: a forged hop left of it does not.
    let forged = forwarded(&proxy, &root, "wrong", "203.0.113.6, 203.0.113.5")
        .await
        .unwrap();
    assert_eq!(forged.status(), 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_never_finish_their_headers_are_closed_while_others_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    // 500 from one address: the per-address cap out of the way, for what is
    // measured here is the header timeout.
    let config = "header_timeout_seconds = 2\nmax_connections_per_address = 1000\n";
    let (_server, base) = Server::start(&database, config, dir.path()).await;
    let address = base.trim_start_matches("http://").to_owned();
    let mut slow = Vec::new();
    for _ in 0..500 {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
            .await
            .unwrap();
        slow.push(stream);
    }
    let root = format!("{base}/deliveryodata/{area}/");
    let client = reqwest::Client::new();
    for _ in 0..10 {
        assert_eq!(sign_in(&client, &root, "known", PASSWORD).await.0, 200);
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut closed = 0;
    for stream in &mut slow {
        let left = deadline.saturating_duration_since(Instant::now());
        let mut buffer = [0u8; 1024];
        // Closed means end of stream or a reset; anything else is a bug or a timeout.
        loop {
            match tokio::time::timeout(left, stream.read(&mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => {
                    closed += 1;
                    break;
                }
                Ok(Ok(_)) => continue,
                Err(_) => break,
            }
        }
    }
    assert_eq!(
        closed, 500,
        "every half-sent request is closed by the header timeout"
    );
    assert_eq!(sign_in(&client, &root, "known", PASSWORD).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_body_never_ends_gets_408_with_the_error_body() {
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    let (_server, base) =
        Server::start(&database, "request_timeout_seconds = 1\n", dir.path()).await;
    let address = base.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&address).await.unwrap();
    let credentials = base64_basic("known", PASSWORD);
    let head = format!(
        "PUT /deliveryodata/{area}/ScoringTasks(QuestionID=1L,ResultID=1) HTTP/1.1\r\n\
         Host: {address}\r\nAuthorization: Basic {credentials}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"Sta"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        let mut buffer = [0u8; 4096];
        loop {
            let n = stream.read(&mut buffer).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buffer[..n]);
            if answer.windows(4).any(|w| w == b"}}}\n") || answer.ends_with(b"}}") {
                break;
            }
        }
    })
    .await;
    assert!(
        read.is_ok(),
        "the server answered within the request timeout"
    );
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"odata.error\""), "{text}");
}

fn base64_basic(username: &str, password: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_name_cannot_forge_a_log_line_or_colour_the_terminal() {
    for format in ["pretty", "json"] {
        let dir = tempfile::tempdir().unwrap();
        let database = sqlite(&dir);
        let area = area_with_account(&database, "known", PASSWORD);
        let log = dir.path().join("server.log");
        let config = format!("log_format = \"{format}\"\n");
        let (server, base) =
            Server::start_logging(&database, &config, dir.path(), Some(&log)).await;
        let root = format!("{base}/deliveryodata/{area}/");
        // No colon: Basic credentials end the name at the first one.
        let forged = "ann\r\n2026-11-26T00.00.00.000000Z  INFO scoredesk forged line\u{1b}[31m";
        let (status, _, _) = sign_in(&reqwest::Client::new(), &root, forged, "guess").await;
        assert_eq!(status, 401);
        drop(server);
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains("failed sign-in"), "{format}: {text}");
        assert!(
            text.contains("forged line"),
            "{format}: the name is logged: {text}"
        );
        assert!(
            !text.contains('\r') && !text.contains('\u{1b}'),
            "{format}: {text:?}"
        );
        assert!(
            !text
                .lines()
                .any(|line| line.starts_with("2026-11-26T00:00:00")),
            "{format}: a line was forged: {text}"
        );
        if format == "json" {
            for line in text.lines() {
                serde_json::from_str::<serde_json::Value>(line)
                    .unwrap_or_else(|e| panic!("{e}: {line}"));
            }
        }
    }
}

/// Opens a connection from `from` and sends half a request's headers.
async fn half_request(address: &str, from: [u8; 4]) -> Option<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(std::net::SocketAddr::from((from, 0))).ok()?;
    let mut stream = socket.connect(address.parse().ok()?).await.ok()?;
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
        .await
        .ok()?;
    Some(stream)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holding_half_sent_requests_does_not_starve_the_others() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    let config = "max_connections = 300\nmax_connections_per_address = 100\n\
                  header_timeout_seconds = 5\n";
    let (_server, base) = Server::start(&database, config, dir.path()).await;
    let address = base.trim_start_matches("http://").to_owned();
    let root = format!("{base}/deliveryodata/{area}/");
    // The attacker keeps 600 half-sent requests open from one address, reopening
    // whatever the server closes, for six seconds.
    let stop = Instant::now() + Duration::from_secs(6);
    let attacker = {
        let address = address.clone();
        tokio::spawn(async move {
            let mut held: Vec<tokio::net::TcpStream> = Vec::new();
            let mut opened = 0u32;
            while Instant::now() < stop {
                let mut open = Vec::new();
                for mut stream in held.drain(..) {
                    let mut probe = [0u8; 1];
                    match tokio::time::timeout(Duration::from_millis(1), stream.read(&mut probe))
                        .await
                    {
                        Ok(Ok(0)) | Ok(Err(_)) | Ok(Ok(_)) => {}
                        Err(_) => open.push(stream),
                    }
                }
                held = open;
                while held.len() < 600 {
                    match half_request(&address, [127, 0, 0, 1]).await {
                        Some(stream) => held.push(stream),
                        None => break,
                    }
                    opened += 1;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            opened
        })
    };
    tokio::time::sleep(Duration::from_secs(1)).await;
    let other = client_from([127, 0, 0, 2]);
    let mut times = Vec::new();
    for _ in 0..10 {
        let (status, took, _) = sign_in(&other, &root, "known", PASSWORD).await;
        assert_eq!(status, 200, "after {took:?}");
        times.push(took);
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let opened = attacker.await.unwrap();
    eprintln!("{opened} half-sent requests opened from one address; others answered in {times:?}");
    // An address at its limit that sends a whole request is told why, with the
    // error body (a half-sent one is closed after a second without a word).
    let mut held = Vec::new();
    for _ in 0..100 {
        held.push(half_request(&address, [127, 0, 0, 3]).await.unwrap());
    }
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::from(([127, 0, 0, 3], 0)))
        .unwrap();
    let mut extra = socket.connect(address.parse().unwrap()).await.unwrap();
    extra
        .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), extra.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("\"odata.error\""), "{answer}");
    let slowest = times.iter().max().copied().unwrap();
    assert!(slowest < Duration::from_secs(2), "{times:?}");
}

/// An upload file whose one image is `bytes` of base64 text.
fn upload_with_image_text(bytes: usize) -> Vec<u8> {
    let head = br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "ImageResponse": {"MediaType": "image/png", "Data": ""#;
    let mut body = Vec::with_capacity(bytes + 200);
    body.extend_from_slice(head);
    body.resize(head.len() + bytes, b'A');
    body.extend_from_slice(br#""}}]}"#);
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_uploads_at_once_stay_within_a_bounded_multiple_of_their_size() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "known", PASSWORD);
    add_account(&database, area, "coordinator", PASSWORD, "coordinator");
    let (server, base) = Server::start(&database, "", dir.path()).await;
    let url = format!("{base}/deliveryodata/{area}/AnswerUploads");
    let client = reqwest::Client::new();
    let send = |body: Vec<u8>| {
        client
            .post(&url)
            .basic_auth("coordinator", Some(PASSWORD))
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };
    // Signed in, so that what follows is the bodies' memory alone.
    let small = send(upload_with_image_text(100)).await.unwrap();
    assert_eq!(small.status(), 400, "{:?}", small.text().await);
    let before = server.peak_memory();
    let size = 31 * 1024 * 1024;
    let one = send(upload_with_image_text(size)).await.unwrap();
    assert_eq!(one.status(), 400);
    let after_one = server.peak_memory();
    let four = futures::future::join_all((0..4).map(|_| send(upload_with_image_text(size)))).await;
    for answer in four {
        let answer = answer.unwrap();
        assert_eq!(answer.status(), 400);
        let text = answer.text().await.unwrap();
        assert!(text.contains("odata.error"), "{text}");
    }
    let after_four = server.peak_memory();
    let mb = |bytes: u64| bytes / 1024 / 1024;
    eprintln!(
        "peak memory: {} MB signed in, {} MB after one 31 MB upload, {} MB after four at once",
        mb(before),
        mb(after_one),
        mb(after_four)
    );
    let per_byte = (after_one - before) as f64 / size as f64;
    assert!(
        per_byte < 4.0,
        "one upload held {per_byte:.1} times its size"
    );
    assert!(
        after_four - before < 200 * 1024 * 1024,
        "four uploads at once grew the server by {} MB",
        mb(after_four - before)
    );
}

/// Sends `request` on a fresh connection and reads whatever comes back until close.
async fn raw_answer(address: &str, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(address).await.unwrap();
    // The server may answer (and close) before the whole request is sent.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_hyper_refuses_itself_comes_with_the_error_body() {
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    area_with_account(&database, "known", PASSWORD);
    let (_server, base) = Server::start(&database, "", dir.path()).await;
    let address = base.trim_start_matches("http://").to_owned();
    // Past hyper's 64 KiB for a URI (414), and past its buffer altogether (431).
    let long_url = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let huge_url = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(1 << 20));
    let many_headers = format!(
        "GET /health HTTP/1.1\r\nHost: x\r\n{}\r\n",
        (0..500)
            .map(|n| format!("X-H{n}: v\r\n"))
            .collect::<String>()
    );
    for (request, status) in [
        (
            b"GET /health HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n".to_vec(),
            "400",
        ),
        (b"GET\x01/health HTTP/1.1\r\n\r\n".to_vec(), "400"),
        (b"GET /health HTTP/9.9\r\nHost: x\r\n\r\n".to_vec(), "400"),
        (long_url.into_bytes(), "414"),
        (huge_url.into_bytes(), "431"),
        (many_headers.into_bytes(), "431"),
    ] {
        let answer = raw_answer(&address, &request).await;
        let shown = &answer[..answer.len().min(300)];
        assert!(answer.starts_with(&format!("HTTP/1.1 {status}")), "{shown}");
        assert!(answer.contains("\"odata.error\""), "{shown}");
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        serde_json::from_str::<serde_json::Value>(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    }
}

/// A class of markers behind one school address, opening the app at the same
/// second, with the line's default settings: every one of them is served, in
/// turn, none refused (the soak found 13 of 47 refused when the line held 32).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_class_signing_in_at_the_same_second_from_one_address_is_served() {
    let _alone = FLOODING.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let database = sqlite(&dir);
    let area = area_with_account(&database, "marker-0", PASSWORD);
    const CLASS: usize = 40;
    for n in 1..CLASS {
        add_scorer(&database, area, &format!("marker-{n}"), PASSWORD);
    }
    let (_server, base) = Server::start(&database, "", dir.path()).await;
    let root = format!("{base}/deliveryodata/{area}/");
    let sign_ins = (0..CLASS).map(|n| {
        let root = root.clone();
        async move {
            let client = reqwest::Client::new();
            sign_in(&client, &root, &format!("marker-{n}"), PASSWORD).await
        }
    });
    let answers = futures::future::join_all(sign_ins).await;
    let refused: Vec<_> = answers
        .iter()
        .enumerate()
        .filter(|(_, (status, _, _))| *status != StatusCode::OK)
        .map(|(n, (status, took, _))| format!("marker-{n}: {status} after {took:?}"))
        .collect();
    assert!(
        refused.is_empty(),
        "{} of {CLASS} not served: {refused:?}",
        refused.len()
    );
    let slowest = answers.iter().map(|(_, took, _)| *took).max().unwrap();
    assert!(
        slowest < Duration::from_secs(20),
        "the last waited {slowest:?}"
    );
}
