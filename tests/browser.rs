//! The coach's page in a real browser: `pegchain serve` on a free port, Debian's headless
//! Chromium driven through chromedriver (WebDriver, fantoccini). The test picks a start,
//! plays a known line by clicking, checks that the odds shown are the CLI's, that undo
//! restores them, that a hopeless jump is marked, and saves a screenshot to
//! docs/coach-page.png. Skipped, saying so, where chromium or chromedriver is missing
//! (`scripts/setup.sh` installs them).

#[path = "support/server.rs"]
mod server;
mod support;
use fantoccini::{ClientBuilder, Locator};
use server::Server;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The CLI's P(one peg) for the position after `moves` from A, as the page shows it.
fn cli_win(moves: &str) -> String {
    let mut args = vec!["coach", "--start", "A"];
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    support::json(&args)["win"]["fraction"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_a_game_with_the_clis_odds() {
    if !std::path::Path::new(CHROMIUM).exists() || !std::path::Path::new(CHROMEDRIVER).exists() {
        eprintln!("skipped: {CHROMIUM} or {CHROMEDRIVER} is missing (scripts/setup.sh installs them)");
        return;
    }
    let server = Server::start();
    let port = free_port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let profile = std::env::temp_dir().join(format!("pegchain-chromium-{}", std::process::id()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=900,760", format!("--user-data-dir={}", profile.display())]
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let started = Instant::now();
    let client = loop {
        match ClientBuilder::new(connector.clone())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => break c,
            Err(_) if started.elapsed() < Duration::from_secs(20) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("chromedriver did not answer: {e}"),
        }
    };
    client.goto(&format!("{}/", server.base)).await.unwrap();
    let hole = |name: &str| Locator::Css(Box::leak(format!("circle[data-hole='{name}']").into_boxed_str()));
    client.wait().for_element(hole("A")).await.unwrap();
    // The odds shown once they settle on `expected`.
    let shows = |expected: String| {
        let client = client.clone();
        async move {
            let started = Instant::now();
            loop {
                let text = client.find(Locator::Id("win")).await.unwrap().text().await.unwrap();
                if text == expected {
                    return;
                }
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "the page shows {text:?}, not {expected:?}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    // The page redraws the board when an answer arrives: a click on a hole drawn just before
    // is tried again on the new drawing.
    let click = |name: &'static str| {
        let client = client.clone();
        async move {
            for _ in 0..20 {
                if let Ok(e) = client.find(hole(name)).await
                    && e.click().await.is_ok()
                {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            panic!("could not click hole {name}");
        }
    };
    click("A").await;
    shows(cli_win("")).await;
    click("F").await;
    click("A").await;
    shows(cli_win("F-C-A")).await;
    click("D").await;
    click("F").await;
    shows(cli_win("F-C-A,D-E-F")).await;
    let hopeless = client.find(Locator::Css("tr[data-jump='M-H-D']")).await.unwrap();
    assert_eq!(hopeless.attr("class").await.unwrap().as_deref(), Some("hopeless"));
    let best = client.find(Locator::Css("tr.best")).await.unwrap();
    assert_eq!(best.attr("data-jump").await.unwrap().as_deref(), Some("A-B-D"));
    client.find(Locator::Id("undo")).await.unwrap().click().await.unwrap();
    shows(cli_win("F-C-A")).await;
    client.find(Locator::Id("redo")).await.unwrap().click().await.unwrap();
    shows(cli_win("F-C-A,D-E-F")).await;
    let decimal = || {
        let client = client.clone();
        async move { client.find(Locator::Id("win-decimal")).await.unwrap().text().await.unwrap() }
    };
    let odds = decimal().await;
    assert!(odds.starts_with("= ") && odds.ends_with(" bits)"), "beside a chance of one peg: {odds:?}");
    // The hopeless jump played: an exact zero, shown alone (no "= 0" beside it); then undone.
    click("M").await;
    click("D").await;
    let lost = cli_win("F-C-A,D-E-F,M-H-D");
    assert_eq!(lost, "0");
    shows(lost).await;
    assert_eq!(decimal().await, "", "beside an exact zero");
    client.find(Locator::Id("undo")).await.unwrap().click().await.unwrap();
    shows(cli_win("F-C-A,D-E-F")).await;
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    std::fs::write(docs.join("coach-page.png"), png).unwrap();
    // The random-jump button plays one legal jump: 11 pegs, and the odds of that position.
    client.find(Locator::Id("random")).await.unwrap().click().await.unwrap();
    let started = Instant::now();
    loop {
        let status = client.find(Locator::Id("status")).await.unwrap().text().await.unwrap();
        if status.starts_with("11 pegs") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "after a random jump the page says {status:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // On a phone-sized screen nothing is wider than the screen and the whole board shows.
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let fits = client
        .execute(
            "const b = document.getElementById('board').getBoundingClientRect();
             return document.documentElement.scrollWidth <= window.innerWidth && b.left >= 0 && b.right <= window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(fits, serde_json::Value::Bool(true), "the page is wider than a phone's screen");
    std::fs::write(docs.join("coach-phone.png"), client.screenshot().await.unwrap()).unwrap();
    // A long answer: the page shows the server's progress while it waits, then the refusal
    // (the European board's future from a full board is too large for the coach). First,
    // asked for and left at once (the player restarts): the page aborts its request and the
    // server stops the work, which ran on for tens of seconds, holding a core, before.
    client.find(Locator::Id("boards")).await.unwrap().select_by_value("european").await.unwrap();
    click("d4").await;
    let query = client
        .execute("return `board=european&pegs=${encodeURIComponent(pegList())}`;", vec![])
        .await
        .unwrap();
    let progress = format!("{}/api/progress?{}", server.base, query.as_str().unwrap());
    let working = || async { server::get(&progress).await.1.contains("\"working\":true") };
    let started = Instant::now();
    while !working().await {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server never worked on the European position"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.find(Locator::Id("restart")).await.unwrap().click().await.unwrap();
    let left = Instant::now();
    while working().await {
        assert!(
            left.elapsed() < Duration::from_secs(5),
            "the server still works on a position the page left"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Another start: d4's refusal may be kept already (the server keeps a refusal it finished
    // finding, as it keeps answers), and a kept one comes with no progress to show.
    click("d1").await;
    let (started, mut progress_seen) = (Instant::now(), false);
    loop {
        let status = client.find(Locator::Id("status")).await.unwrap().text().await.unwrap();
        progress_seen |= status.starts_with("Working out the odds: finding the position's future: ");
        if status.contains("too many for the coach") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "on the European board the page says {status:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(progress_seen, "the page showed no progress while it waited");
    client.close().await.unwrap();
    let _ = std::fs::remove_dir_all(profile);
}
