//! `pegchain serve` under load and bad input: 100 concurrent clients get the library's
//! exact answers; malformed requests get a 4xx with a one-line JSON error; a connection that
//! sends no whole request is closed.

#[path = "support/server.rs"]
mod server;
mod support;
use pegchain::Policy;
use pegchain::solitaire::board::builtin;
use pegchain::solitaire::coach::Coach;
use pegchain::solitaire::moves::MoveTable;
use pegchain::solitaire::position::play;
use server::{Server, get, request};

/// Positions of the 15-hole board, as the API's peg lists, with the library's P(one peg).
fn positions() -> Vec<(String, String)> {
    let board = builtin("triangle5").unwrap();
    let moves = MoveTable::new(&board);
    let coach = Coach::new(&board, Policy::Uniform);
    let mut out = Vec::new();
    // Every start, and every position one jump after it.
    for start in 0..15u8 {
        let pos = play(&board, start, "").unwrap();
        let mut all = vec![pos];
        all.extend(moves.legal(pos).map(|j| moves.apply(pos, j)));
        for p in all {
            let win = coach.advise(p).unwrap().odds.one_peg.to_string();
            out.push((board.hole_list(p).join(","), win));
        }
    }
    out
}

/// Numbers below `n` drawn from a fixed seed (a linear congruential generator): random
/// requests, the same in every run.
fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_clients_get_exact_answers() {
    let server = Server::start();
    let cases = std::sync::Arc::new(positions());
    assert!(cases.len() >= 50, "{}", cases.len());
    let mut tasks = Vec::new();
    for client in 0..100usize {
        let (base, cases) = (server.base.clone(), cases.clone());
        tasks.push(tokio::spawn(async move {
            for k in 0..5 {
                let (pegs, win) = &cases[(client * 7 + k * 3) % cases.len()];
                let (status, body) = get(&format!("{base}/api/coach?board=triangle5&pegs={pegs}")).await;
                assert_eq!(status, 200, "{body}");
                let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                assert_eq!(v["win"]["fraction"].as_str(), Some(win.as_str()), "{pegs}");
            }
        }));
    }
    let all = async {
        for t in tasks {
            t.await.unwrap();
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(60), all)
        .await
        .expect("every client answered within a minute");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_a_one_line_json_error() {
    let server = Server::start();
    let b = &server.base;
    let cases: Vec<(String, u16, &str)> = vec![
        (format!("{b}/api/coach?board=nope&pegs=A"), 404, "unknown board \"nope\""),
        // The form, and what is wrong with the query: it said only the form.
        (
            format!("{b}/api/coach?board=triangle5"),
            400,
            "(and &policy=uniform): the query gives neither pegs nor a start",
        ),
        (
            format!("{b}/api/coach?board=triangle5&moves=F-C-A"),
            400,
            "(and &policy=uniform): moves are played from a start, and the query gives none",
        ),
        (
            format!("{b}/api/coach?board=triangle5&pegs=A,B,C&start=A"),
            400,
            "(and &policy=uniform): the position is given by its pegs or by a start, not both",
        ),
        // A parameter the API does not take (misspelt: Policy) was ignored, and the answer
        // given without it.
        (
            format!("{b}/api/coach?board=triangle5&start=A&Policy=peg-first"),
            400,
            "(and &policy=uniform): unknown parameter \"Policy\"; the parameters are `board`, `pegs`, `start`, `moves`, `policy`",
        ),
        (format!("{b}/api/coach?board=triangle5&start=A&foo=bar"), 400, "unknown parameter \"foo\""),
        (format!("{b}/api/progress?board=triangle5&start=A&foo=bar"), 400, "unknown parameter \"foo\""),
        // The progress address's refusal names its own address (it named the coach's).
        (format!("{b}/api/progress?pegs=A"), 400, "expected /api/progress?board=NAME&pegs=A,B,C"),
        // What the query's parser found wrong is said.
        (format!("{b}/api/coach?pegs=A"), 400, "(and &policy=uniform): missing field `board`"),
        (format!("{b}/api/coach?board=triangle5&board=english&start=A"), 400, "duplicate field `board`"),
        (
            format!("{b}/api/coach?board=triangle5&start=A&moves=F-C-A&moves=D-E-F"),
            400,
            "duplicate field `moves`",
        ),
        (format!("{b}/api/coach?board=triangle5&pegs=A,A"), 422, "names hole A twice"),
        (format!("{b}/api/coach?board=triangle5&pegs=Z9"), 422, "has no hole"),
        (format!("{b}/api/coach?board=triangle5&pegs=A,,C"), 422, "the position's list has an empty item"),
        (format!("{b}/api/coach?board=triangle5&pegs=A&policy=lazy"), 400, "policy"),
        (format!("{b}/api/coach?board=european&start=d4"), 422, "too many for the coach"),
        (
            format!("{b}/api/coach?board=triangle5&start=A&moves=F-C-A,F-C-A"),
            422,
            "jump 2 (F-C-A) is not legal here",
        ),
        (format!("{b}/api/coach?board=triangle5&start=A&moves=F-Q"), 422, "has no hole"),
        // Jumps with the pegs were dropped unplayed, and the pegs' answer given.
        (
            format!("{b}/api/coach?board=triangle5&pegs=A,B,C&moves=garbage"),
            400,
            "moves are played from a start, not from pegs",
        ),
        (format!("{b}/api/coach?board=triangle5&start=A&moves=A-B-C"), 422, "is not a jump"),
        (
            format!("{b}/nowhere"),
            404,
            "no such page: the page is / and the API is /api/boards, /api/coach and /api/progress",
        ),
    ];
    // A long name is quoted in short, as on the command line: these were echoed whole.
    let long = "x".repeat(60_000);
    let short = format!("{:?}... (60000 characters)", "x".repeat(40));
    let cases = [
        cases,
        vec![
            (format!("{b}/api/coach?board={long}&pegs=A"), 404, short.as_str()),
            (format!("{b}/api/coach?board=triangle5&pegs=A&policy={long}"), 400, short.as_str()),
            (format!("{b}/api/coach?board=triangle5&pegs=A&{long}=1"), 400, short.as_str()),
        ],
    ]
    .concat();
    for (url, status, words) in cases {
        let (got, body) = get(&url).await;
        assert!(body.len() < 500, "{} bytes: {}", body.len(), &body[..200]);
        assert_eq!(got, status, "{url}: {body}");
        assert_eq!(body.lines().count(), 1, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(v["error"].as_str().unwrap().contains(words), "{url}: {body}");
    }
    // A body where none is taken, over the 16 KB a request may carry: refused with a 4xx.
    let (status, body) =
        request("POST", &format!("{b}/api/coach?board=triangle5&pegs=A"), vec![b'x'; 20_000]).await;
    assert_eq!(status, 405);
    assert!(body.contains("GET requests only") && body.lines().count() == 1, "{body}");
    let (status, page) = get(&format!("{b}/")).await;
    assert_eq!(status, 200);
    assert!(page.contains("<title>pegchain coach</title>"));
    // Every asset is inside the page: it works with no network.
    for needle in ["src=", "href=", "@import", "url("] {
        assert!(!page.contains(needle), "the page loads an asset: {needle}");
    }
    // Jumps played from a start give the answer of the position they lead to.
    let (_, by_moves) = get(&format!("{b}/api/coach?board=triangle5&start=A&moves=F-C-A,D-E-F")).await;
    let (_, by_pegs) = get(&format!("{b}/api/coach?board=triangle5&pegs=A,B,F,G,H,I,J,K,L,M,N,O")).await;
    assert_eq!(by_moves, by_pegs);
    let (status, boards) = get(&format!("{b}/api/boards")).await;
    assert_eq!(status, 200);
    assert!(boards.contains("\"triangle5\""));
}

/// A board is found by its name as the command line finds it (`coach --board TRIANGLE5`), in
/// any case: `board=Triangle5` was a 404, unknown board. The answer names the board as the
/// command line's does, and is the same answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_is_found_by_its_name_in_any_case() {
    let server = Server::start();
    let b = &server.base;
    let (_, canonical) = get(&format!("{b}/api/coach?board=triangle5&start=A&moves=F-C-A")).await;
    for name in ["Triangle5", "TRIANGLE5", "triangle05"] {
        let (status, body) = get(&format!("{b}/api/coach?board={name}&start=A&moves=F-C-A")).await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(body, canonical, "{name}");
        let (status, body) = get(&format!("{b}/api/progress?board={name}&start=A")).await;
        assert_eq!((status, body.as_str()), (200, r#"{"working":false}"#), "{name}");
    }
    let (status, body) = get(&format!("{b}/api/coach?board=English&pegs=d2,d3,c4")).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = get(&format!("{b}/api/coach?board=triangle11&start=A")).await;
    assert_eq!(status, 404, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(v["error"].as_str().unwrap().starts_with("unknown board \"triangle11\""), "{body}");
}

/// Random queries (names, holes, jumps and junk, percent-encoded) from a fixed seed: every
/// answer is a coach answer or a one-line JSON error with a 4xx, and the server lives on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_queries_get_an_answer_or_a_one_line_error() {
    let server = Server::start();
    let words = [
        "board",
        "pegs",
        "start",
        "moves",
        "policy",
        "triangle5",
        "triangle6",
        "english",
        "A",
        "B",
        "C",
        "D",
        "E",
        "F",
        "O",
        "Z",
        "F-C-A",
        "D-E-F",
        "A-B-D",
        "M-H-D",
        ",",
        "-",
        "=",
        "&",
        "%",
        "\u{0}",
        "\u{e9}",
        "..",
        "",
        "uniform",
        "lazy",
        "a3",
        "d4",
        "A,B,C,D,E,F,G,H,I,J,K,L,M,N,O",
        "1e999",
        "9999999999999999999999",
    ];
    let mut next = picker(0x9e37_79b9_7f4a_7c15);
    let encode = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let boards = ["triangle5", "triangle4", "triangle5", "nope", ""];
    let starts = ["A", "D", "E", "O", "Z", "a3", ""];
    let (mut answered, mut refused) = (0, 0);
    for _ in 0..300 {
        let mut query = format!("board={}", encode(boards[next(boards.len())]));
        if next(2) == 0 {
            query += &format!("&start={}", encode(starts[next(starts.len())]));
        }
        for _ in 0..next(3) {
            let key = words[next(5)];
            let value: String = (0..next(4)).map(|_| words[next(words.len())]).collect::<Vec<_>>().join(",");
            query += &format!("&{}={}", encode(key), encode(&value));
        }
        let url = format!("{}/api/coach?{query}", server.base);
        let (status, body) = get(&url).await;
        let v: serde_json::Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{url}: {e}: {body}"));
        match status {
            200 => {
                assert!(v["win"]["fraction"].is_string(), "{url}: {body}");
                answered += 1;
            }
            400..=499 => {
                assert!(v["error"].is_string() && body.lines().count() == 1, "{url}: {body}");
                refused += 1;
            }
            _ => panic!("{url}: status {status}: {body}"),
        }
    }
    // The seed gives a mix of both.
    assert!(answered >= 20 && refused >= 100, "{answered} answered, {refused} refused");
    let (status, _) = get(&format!("{}/api/boards", server.base)).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_answer_reports_its_progress_and_clears_it() {
    let server = Server::start();
    // The European board from a full board: seconds of search before the refusal.
    let query = "board=european&start=d4";
    let coach_url = format!("{}/api/coach?{query}", server.base);
    let answer = tokio::spawn(async move { get(&coach_url).await });
    let progress_url = format!("{}/api/progress?{query}", server.base);
    let mut seen = None;
    for _ in 0..200 {
        let (status, body) = get(&progress_url).await;
        assert_eq!(status, 200, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        if let Some(text) = v["progress"].as_str().filter(|t| t.contains(" positions with ")) {
            assert_eq!(v["working"], true);
            seen = Some(text.to_string());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let seen = seen.expect("progress while the answer was computed");
    assert!(seen.starts_with("finding the position's future: "), "{seen}");
    let (status, body) = answer.await.unwrap();
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("too many for the coach"), "{body}");
    let (_, idle) = get(&progress_url).await;
    assert_eq!(idle, r#"{"working":false}"#);
    // The refusal is kept: asked again, it is given as before with no new search (each such
    // request searched for seconds again).
    let coach_url = format!("{}/api/coach?{query}", server.base);
    let again = tokio::spawn(async move { get(&coach_url).await });
    while !again.is_finished() {
        assert_eq!(get(&progress_url).await.1, r#"{"working":false}"#, "searched again");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(again.await.unwrap(), (422, body));
}

/// A position of the English board whose future (8.5 million positions up to symmetry) is
/// past what the coach keeps every distribution for: the server answers it (its limit is the
/// coach's own, where the machine's memory allows), byte for byte as `pegchain coach --json`;
/// and the positions of the game that goes on below it, from the future it keeps (a forward
/// pass from each), byte for byte as well, while another page plays on the 15-hole board (its
/// future is kept beside the English one, not in its place).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_english_position_and_the_game_below_it_are_answered_as_the_command_line_answers_them() {
    let server = Server::start();
    let game = ["d2-d3-d4,b3-c3-d3,c1-c2-c3,e1-d1-c1,d3-c3-b3,a3-b3-c3", "e3-e2-e1", "g3-f3-e3"];
    for k in 1..=game.len() {
        let moves = game[..k].join(",");
        let (status, body) =
            get(&format!("{}/api/coach?board=english&start=d4&moves={moves}", server.base)).await;
        assert_eq!(status, 200, "{body}");
        let cli = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
            .args(["coach", "--board", "english", "--start", "d4", "--moves", &moves, "--json", "-q"])
            .output()
            .unwrap();
        assert!(cli.status.success());
        assert_eq!(body, String::from_utf8(cli.stdout).unwrap(), "after {moves}");
        let (status, body) =
            get(&format!("{}/api/coach?board=triangle5&start=A&moves=F-C-A", server.base)).await;
        assert_eq!(status, 200, "{body}");
    }
}

/// The answer to `request` sent alone on a new connection to `address`, read up to its end
/// (its `content-length`) or the connection's.
async fn raw(address: &str, request: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    // The server may answer and close before it has read every byte.
    let _ = stream.write_all(request).await;
    let mut received = Vec::new();
    let whole = |r: &[u8]| {
        let text = String::from_utf8_lossy(r);
        let Some((head, body)) = text.split_once("\r\n\r\n") else { return false };
        let length = head.lines().find_map(|l| l.strip_prefix("content-length: ")?.parse::<usize>().ok());
        length.is_some_and(|n| body.len() >= n)
    };
    let read = async {
        let mut chunk = [0u8; 4096];
        while !whole(&received) {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&chunk[..n]),
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(20), read).await.expect("an answer within 20 s");
    String::from_utf8_lossy(&received).into_owned()
}

/// The status of `answer`, checking that an error's body is a one-line JSON error.
fn status_of(answer: &str, request: &str) -> u16 {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{request:?}: {answer:?}"));
    let status: u16 = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{answer:?}"));
    if status >= 400 {
        assert!(head.contains("content-type: application/json"), "{request:?}: {answer}");
        assert!(head.contains(&format!("content-length: {}", body.len())), "{request:?}: {answer}");
        assert_eq!(body.lines().count(), 1, "{request:?}: {body}");
        let v: serde_json::Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{request:?}: {e}: {body}"));
        assert!(v["error"].is_string(), "{request:?}: {body}");
    }
    status
}

/// Requests hyper refuses before any handler sees them (not HTTP, an address over 64 KB, a
/// head of 2 MB) get the same one-line JSON error; hyper's own answers had no body. So
/// do request heads made at random from a fixed seed (methods, paths, versions, headers and
/// junk; not HEAD, whose answers have no body): every answer is a status with, for an
/// error, its one-line JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_the_http_library_refuses_get_a_one_line_json_error_too() {
    let server = Server::start();
    let address = server.base.trim_start_matches("http://").to_string();
    let long_address =
        format!("GET /api/coach?board={} HTTP/1.1\r\nHost: localhost\r\n\r\n", "x".repeat(70_000));
    let long_head =
        format!("GET /api/boards HTTP/1.1\r\nHost: localhost\r\nX: {}\r\n\r\n", "y".repeat(2_000_000));
    let many_headers = format!(
        "GET /api/boards HTTP/1.1\r\nHost: localhost\r\n{}\r\n",
        (0..100).map(|i| format!("X-{i}: y\r\n")).collect::<String>()
    );
    let cases = [
        ("garbage\r\n\r\n".to_string(), 400, "not a request the server can read"),
        (long_address, 414, "the request's address is too long"),
        (long_head, 431, "the request's headers are too large"),
        // An HTTP/2 client's first bytes: the connection was closed without a word.
        ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_string(), 400, "not a request the server can read"),
        // 101 short header lines: past the HTTP library's 100, refused in the same words.
        (many_headers, 431, "the request's headers are too large or too many (at most 100 lines"),
    ];
    for (request, status, words) in cases {
        let answer = raw(&address, request.as_bytes()).await;
        assert_eq!(status_of(&answer, &request), status, "{answer}");
        let body = answer.split_once("\r\n\r\n").unwrap().1;
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().starts_with(words), "{body}");
    }
    // Well-formed pieces more often than not, so that some requests are whole and answered.
    let methods = ["GET", "GET", "GET", "GET", "POST", "DELETE", "G\u{0}T", "", "get", "GET GET"];
    let paths = [
        "/",
        "/api/boards",
        "/api/coach?board=triangle5&start=A",
        "/api/coach?board=%ZZ",
        "api",
        "*",
        "/\u{7f}",
        "",
    ];
    let versions = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9", "", "http/1.1"];
    let headers = [
        "Host: localhost",
        "Accept: */*",
        "X-Y: z",
        "Content-Length: abc",
        "Content-Length: -1",
        "Transfer-Encoding: chunked, gzip",
        "X",
        ": empty",
        "\u{1}: \u{2}",
    ];
    let mut next = picker(0x2545_f491_4f6c_dd1d);
    let mut statuses = std::collections::BTreeMap::new();
    for _ in 0..120 {
        let mut request = format!(
            "{} {} {}\r\n",
            methods[next(methods.len())],
            paths[next(paths.len())],
            versions[next(versions.len())]
        );
        // A host named, as every HTTP/1.1 client names it (a second one is refused).
        request += "Host: localhost\r\n";
        for _ in 0..next(4) {
            request += &format!("{}\r\n", headers[next(headers.len())]);
        }
        // Every request ends its head (and closes, for an answer that would keep it open).
        request += "Connection: close\r\n\r\n";
        let status = status_of(&raw(&address, request.as_bytes()).await, &request);
        assert!(status == 200 || (400..600).contains(&status), "{request:?}: status {status}");
        *statuses.entry(status).or_insert(0) += 1;
    }
    // The seed gives answers, the handlers' refusals and hyper's, and the host check's (`GET
    // api` names the host `api`, as an address written whole would).
    assert_eq!(statuses.keys().copied().collect::<Vec<u16>>(), [200, 400, 403, 404, 405], "{statuses:?}");
    // The server lives on.
    let (status, _) = get(&format!("{}/api/boards", server.base)).await;
    assert_eq!(status, 200);
}

/// Under an address-space limit (`ulimit -v 250000`), 512 clients each sending a request head
/// of 405,000 bytes and stalling aborted the server at about the 473rd ("memory allocation of
/// 507904 bytes failed", exit 134): hyper buffered about 0.5 MB of each head, and neither the
/// connections nor their buffers were counted in the memory budget. A head past 80 KB is now
/// refused (431), and the connections served at once fit a quarter of the budget: the server
/// answers on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_stalling_with_large_heads_never_exhaust_a_server_under_a_memory_limit() {
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;
    let server = Server::start_under_address_limit(250_000 * 1024);
    let address = server.base.trim_start_matches("http://").to_string();
    let head = format!("GET /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nX: {}", "a".repeat(405_000));
    let mut held = Vec::new();
    for client in 0..512 {
        let connect = tokio::net::TcpStream::connect(&address);
        let connected = tokio::time::timeout(Duration::from_secs(10), connect).await;
        let mut stream = connected
            .unwrap_or_else(|_| panic!("client {client}: no connection within 10 s"))
            .unwrap_or_else(|e| panic!("client {client}: {e} (the server has died)"));
        // The server may refuse the head and close before it has read it all.
        let _ = tokio::time::timeout(Duration::from_secs(10), stream.write_all(head.as_bytes())).await;
        held.push(stream);
    }
    let url = format!("{}/api/boards", server.base);
    let (status, _) =
        tokio::time::timeout(Duration::from_secs(10), get(&url)).await.expect("an answer within 10 s");
    assert_eq!(status, 200);
}

/// A request addressed by a name other than localhost is refused (403, one-line JSON) before
/// any handler sees it: a web page elsewhere could point such a name at 127.0.0.1 (DNS
/// rebinding) and ask the server through it as its own origin. Addresses and localhost are
/// answered, and a request with no Host header, which no browser sends. Loopback written as
/// an IPv4-mapped address (`--host ::ffff:127.0.0.1`) answered any name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_addressed_by_another_name_is_refused() {
    for host in ["127.0.0.1", "::ffff:127.0.0.1"] {
        let server = Server::start_with(&["--host", host]);
        let address = server.base.trim_start_matches("http://").trim_end_matches('/').to_string();
        let port = address.rsplit_once(':').unwrap().1;
        let ask = |host: &str| match host.is_empty() {
            true => "GET /api/boards HTTP/1.0\r\n\r\n".to_string(),
            false => format!("GET /api/boards HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        };
        for (host, status) in [
            (format!("evil.example:{port}"), 403),
            ("localhost.evil.example".to_string(), 403),
            (format!("localhost:{port}"), 200),
            (address.clone(), 200),
            (String::new(), 200),
        ] {
            let request = ask(&host);
            let answer = raw(&address, request.as_bytes()).await;
            assert_eq!(status_of(&answer, &request), status, "{address} {host}: {answer}");
            if status == 403 {
                assert!(answer.contains("addressed to its IP address or localhost"), "{answer}");
            }
        }
        // The host is named once, by HTTP/1.1 always, and an address written whole names it
        // in the header's place: each of these was answered (200).
        for (request, status, words) in [
            (
                format!(
                    "GET /api/boards HTTP/1.1\r\nHost: {address}\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
                ),
                400,
                "the request names its host twice",
            ),
            (
                "GET /api/boards HTTP/1.1\r\nConnection: close\r\n\r\n".to_string(),
                400,
                "an HTTP/1.1 request names its host",
            ),
            (
                format!(
                    "GET http://evil.example:{port}/api/boards HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
                ),
                403,
                "addressed to its IP address or localhost",
            ),
            (
                format!(
                    "GET http://{address}/api/boards HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
                ),
                200,
                "",
            ),
        ] {
            let answer = raw(&address, request.as_bytes()).await;
            assert_eq!(status_of(&answer, &request), status, "{request}: {answer}");
            assert!(answer.contains(words), "{answer}");
        }
    }
}

/// A page of another web site cannot read the server's answers, but its plain GET (a script's,
/// or an image's) would still set the server computing: browsers mark such requests
/// (`Sec-Fetch-Site`, `Origin`), and they are refused before any work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_from_another_web_sites_page_is_refused() {
    let server = Server::start();
    let address = server.base.trim_start_matches("http://").trim_end_matches('/').to_string();
    let ask = |headers: &str| {
        format!(
            "GET /api/coach?board=triangle5&start=A HTTP/1.1\r\nHost: {address}\r\n{headers}Connection: close\r\n\r\n"
        )
    };
    let own = format!("Origin: http://{address}\r\nSec-Fetch-Site: same-origin\r\n");
    for (headers, status) in [
        ("Sec-Fetch-Site: cross-site\r\n", 403),
        ("Sec-Fetch-Site: same-site\r\n", 403),
        ("Origin: https://evil.example\r\n", 403),
        ("Origin: null\r\n", 403),
        ("Sec-Fetch-Site: none\r\n", 200),
        (own.as_str(), 200),
        ("", 200),
    ] {
        let request = ask(headers);
        let answer = raw(&address, request.as_bytes()).await;
        assert_eq!(status_of(&answer, &request), status, "{headers}: {answer}");
        if status == 403 {
            assert!(answer.contains("not a request from another web site's page"), "{answer}");
        } else {
            assert!(answer.contains("\"command\": \"coach\""), "{answer}");
        }
    }
}

/// A link to the page followed from another site (a tutorial's link to http://127.0.0.1:8000/)
/// opens the page: the browser's top-level navigation, which no page's script or image can
/// make, was refused with a 403 of raw JSON. The API is still refused to another site's
/// navigation, and so is the page to its frame or image.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_to_the_page_from_another_site_opens_it() {
    let server = Server::start();
    let address = server.base.trim_start_matches("http://").trim_end_matches('/').to_string();
    let ask = |path: &str, dest: &str, mode: &str| {
        format!(
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: {mode}\r\n\
             Sec-Fetch-Dest: {dest}\r\nConnection: close\r\n\r\n"
        )
    };
    for (path, dest, mode, status) in [
        ("/", "document", "navigate", 200),
        ("/api/coach?board=triangle5&start=A", "document", "navigate", 403),
        ("/api/boards", "document", "navigate", 403),
        ("/", "iframe", "navigate", 403),
        ("/", "image", "no-cors", 403),
    ] {
        let request = ask(path, dest, mode);
        let answer = raw(&address, request.as_bytes()).await;
        assert_eq!(status_of(&answer, &request), status, "{path} {dest}: {answer}");
        if status == 200 {
            assert!(answer.contains("<title>pegchain coach</title>"), "{answer}");
        } else {
            assert!(answer.contains("not a request from another web site's page"), "{answer}");
        }
    }
}

/// A client that connects and sends nothing, or half a request head, or one request and then
/// nothing on a kept-alive connection, has its connection closed after `--idle-timeout`
/// (it was held for ever before); the server answers others all the while.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_no_whole_request_is_closed_after_the_idle_timeout() {
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start_with(&["--idle-timeout", "1"]);
    let address = server.base.trim_start_matches("http://").to_string();
    let heads: [&[u8]; 3] = [
        b"",
        b"GET /api/boards HTTP/1.1\r\nHost: localhost\r\n",
        b"GET /api/boards HTTP/1.1\r\nHost: localhost\r\n\r\n",
    ];
    for head in heads {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        stream.write_all(head).await.unwrap();
        let began = Instant::now();
        let mut received = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut received)).await;
        let waited = began.elapsed();
        assert!(
            read.is_ok(),
            "the connection after {:?} was still open after 20 s",
            String::from_utf8_lossy(head)
        );
        assert!(waited >= Duration::from_millis(900), "closed after {waited:?}, before the timeout");
        // The whole request got its whole answer before the connection was closed.
        let answer = String::from_utf8_lossy(&received);
        assert_eq!(answer.starts_with("HTTP/1.1 200"), head.ends_with(b"\r\n\r\n"), "{answer}");
        let (status, _) = get(&format!("{}/api/boards", server.base)).await;
        assert_eq!(status, 200);
    }
}

/// A client that asks and never reads its answers (requests sent back to back, nothing read)
/// has its connection closed once the server's writes have waited `--idle-timeout`: it was
/// held for ever, and 512 such clients locked every other one out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reads_no_answer_is_closed_after_the_idle_timeout() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start_with(&["--idle-timeout", "1"]);
    let address: std::net::SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(address).await.unwrap();
    // 2,000 answers of the boards (about 17 KB each, 33 MB in all): far more than the sockets'
    // buffers hold.
    let requests = "GET /api/boards HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(2000);
    stream.write_all(requests.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_secs(5)).await;
    // Read now: the server gave up writing long ago, so what it had sent is all there is.
    let mut received = 0usize;
    let mut chunk = vec![0u8; 1 << 16];
    let read = async {
        while let Ok(n @ 1..) = stream.read(&mut chunk).await {
            received += n;
        }
    };
    tokio::time::timeout(Duration::from_secs(20), read).await.expect("the connection was closed");
    let answer = get(&format!("{}/api/boards", server.base)).await.1.len();
    assert!(received < 1000 * answer, "{received} bytes: the server wrote on to a client that reads nothing");
    let (status, _) = get(&format!("{}/api/boards", server.base)).await;
    assert_eq!(status, 200);
}

/// `--idle-timeout` outside 1 to 3600 seconds is refused in one line.
#[test]
fn an_idle_timeout_out_of_range_is_refused_in_one_line() {
    for flag in ["--idle-timeout", "--budget"] {
        for seconds in ["0", "3601"] {
            assert_eq!(
                refusal(&["serve", "--port", "0", flag, seconds]),
                format!("pegchain: {flag} takes 1 to 3600 seconds, not {seconds}\n")
            );
        }
    }
}

/// `--budget` sets how long an answer may compute: the English board from its full board
/// (7 s or more) is cut off after 1 s, and the refusal says how to raise it (a slow machine
/// never answered that board within the fixed 30 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_of_an_answer_is_set_by_budget() {
    let server = Server::start_with(&["--budget", "1"]);
    let (status, body) = get(&format!("{}/api/coach?board=english&start=d4", server.base)).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(
        body,
        r#"{"error":"the answer takes longer than the server's budget of 1 s (serve --budget SECONDS sets it)"}"#
    );
    let (status, _) = get(&format!("{}/api/coach?board=triangle5&start=A", server.base)).await;
    assert_eq!(status, 200);
}

/// `--host 0.0.0.0` listens on every interface, an address no browser opens: the server said
/// "serving the coach on http://0.0.0.0:PORT/". It now gives this machine's loopback to open,
/// and says where it listens; the address given answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_every_interface_gives_an_address_a_browser_opens() {
    use std::io::{BufRead, BufReader};
    /// The server, killed when dropped (a failed assertion too).
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Killed(
        std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
            .args(["serve", "--port", "0", "--host", "0.0.0.0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line
        .strip_prefix("pegchain: serving the coach on http://127.0.0.1:")
        .and_then(|rest| rest.split_once('/'))
        .map(|(port, _)| port.to_string())
        .unwrap_or_else(|| panic!("{line}"));
    assert_eq!(
        line,
        format!(
            "pegchain: serving the coach on http://127.0.0.1:{port}/ (listening on every interface, 0.0.0.0:{port}; Ctrl-C stops it)\n"
        )
    );
    let (status, _) = get(&format!("http://127.0.0.1:{port}/api/boards")).await;
    assert_eq!(status, 200);
}

/// The stderr of a `serve` that must refuse to start: exit 2, nothing on stdout. One that
/// serves instead is stopped after 10 s, failing the test rather than holding it for ever.
fn refusal(args: &[&str]) -> String {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = ended_within_10_s(child);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// The output of `child`, stopped after 10 s if it has not ended: a server that went on
/// serving would hold the test for ever.
fn ended_within_10_s(mut child: std::process::Child) -> std::process::Output {
    let began = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && began.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

/// A port another program holds: one line naming the address and why, with no "(os error
/// 98)" tail, and exit 2.
#[test]
fn a_port_in_use_is_refused_in_one_line() {
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port().to_string();
    assert_eq!(
        refusal(&["serve", "--port", &port]),
        format!("pegchain: cannot listen on 127.0.0.1:{port}: Address already in use\n")
    );
}

/// A `--host` with a port was looked up as a name (`cannot listen on 127.0.0.1:9000:0`), and
/// one that cannot be used was quoted in full (a line of 5,000 characters): the first is now
/// told to give the port with --port, and a host name is quoted cut to 40 characters.
#[test]
fn a_host_with_a_port_or_too_long_is_refused_in_a_short_line() {
    assert_eq!(
        refusal(&["serve", "--port", "0", "--host", "127.0.0.1:9000"]),
        "pegchain: --host takes no port, not \"127.0.0.1:9000\": give the port with --port\n"
    );
    let long = "a".repeat(5000);
    let refused = refusal(&["serve", "--port", "0", "--host", &long]);
    let quoted = format!("pegchain: cannot listen on \"{}\"... (5000 characters) port 0: ", &long[..40]);
    assert!(refused.starts_with(&quoted), "{refused}");
    assert_eq!(refused.lines().count(), 1, "{refused}");
    assert!(refused.len() < 200, "{refused}");
}

/// The address goes to stdout, the only place a port chosen by the system is told: a server
/// that cannot write it stops at once, in one line, with exit 1 (a run-time failure).
#[test]
fn an_address_that_cannot_be_written_stops_the_server() {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(["serve", "--port", "0"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = ended_within_10_s(child);
    assert_eq!(out.status.code(), Some(1), "still serving after 10 s");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "pegchain: cannot write to standard output: No space left on device\n"
    );
}

/// The built-in boards are always offered, found by name in any case: a board file may take a
/// built-in's name, however written, only by being that board (the shipped
/// `data/boards/triangle5.json`, offered once, first); another board of that name is refused in
/// one line rather than hide the built-in. A name differing only in case (`English`) was
/// offered beside the built-in, and lookups of the two disagreed by case.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_file_may_not_hide_a_built_in_board() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-name-clash");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("small.txt");
    for name in ["triangle5", "English", "TRIANGLE05"] {
        std::fs::write(&file, format!("name: {name}\nlattice: triangular\n  A\n B C\nD E F\n")).unwrap();
        let file = file.display().to_string();
        assert_eq!(
            refusal(&["serve", "--port", "0", "--board", &file]),
            format!(
                "pegchain: board file {file}: the board is named \"{name}\" but is not the built-in board of \
                 that name, which serve offers too; give it another name\n"
            )
        );
    }
    // The English board itself under another case takes the built-in's place, found in any case.
    let english = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/boards/english.txt"));
    let file = dir.join("English.txt");
    std::fs::write(&file, english.unwrap().replace("name: english", "name: English")).unwrap();
    let server = Server::start_with(&["--board", &file.display().to_string()]);
    let (_, body) = get(&format!("{}/api/boards", server.base)).await;
    let boards: serde_json::Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> =
        boards["boards"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names.iter().filter(|name| name.eq_ignore_ascii_case("english")).count(), 1, "{names:?}");
    for board in ["english", "English", "ENGLISH"] {
        let (status, body) = get(&format!("{}/api/progress?board={board}&start=d4", server.base)).await;
        assert_eq!((status, body.as_str()), (200, r#"{"working":false}"#), "{board}");
    }
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/data/boards/triangle5.json");
    let server = Server::start_with(&["--board", shipped]);
    let (status, body) = get(&format!("{}/api/boards", server.base)).await;
    assert_eq!(status, 200);
    let boards: serde_json::Value = serde_json::from_str(&body).unwrap();
    let named =
        |name: &str| boards["boards"].as_array().unwrap().iter().filter(|b| b["name"] == name).count();
    assert_eq!(boards["boards"][0]["name"], "triangle5");
    assert_eq!(boards["boards"][0]["holes"].as_array().unwrap().len(), 15);
    assert_eq!((named("triangle5"), named("english")), (1, 1));
}

/// A client that sends its whole request and then closes its side for writing (`nc -N`,
/// socat, many scripts) gets its answer: for a position not answered before, the server
/// closed the connection with nothing written (cached answers were sent).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_client_half_closes_is_answered() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start();
    let address = server.base.trim_start_matches("http://").to_string();
    // Not answered before, answered (from the cache), and a refusal.
    for query in ["board=triangle6&start=B", "board=triangle6&start=B", "board=triangle5&pegs=A,A"] {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        let head = format!("GET /api/coach?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.shutdown().await.unwrap();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(std::time::Duration::from_secs(20), stream.read_to_end(&mut answer));
        read.await.expect("an answer within 20 s").unwrap();
        let answer = String::from_utf8_lossy(&answer);
        let expected = if query.contains("pegs=A,A") { 422 } else { 200 };
        assert_eq!(status_of(&answer, query), expected, "{query}: {answer:?}");
        let body = answer.split_once("\r\n\r\n").unwrap().1;
        let (_, direct) = get(&format!("{}/api/coach?{query}", server.base)).await;
        assert_eq!(body, direct, "{query}");
    }
}

/// A client that goes for good while its answer is computed (its connection reset: a killed
/// process, a socket closed with unread bytes) has its work stopped at once, where a
/// half-close is answered (above): the English board from a full board, about 10 s of work,
/// is given up within 3 s of the reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_while_its_answer_is_computed_stops_the_work() {
    use std::time::{Duration, Instant};
    use tokio::io::AsyncWriteExt;
    let server = Server::start();
    let address = server.base.trim_start_matches("http://").to_string();
    let query = "board=english&start=d4";
    let progress_url = format!("{}/api/progress?{query}", server.base);
    let working = || async {
        let (status, body) = get(&progress_url).await;
        assert_eq!(status, 200, "{body}");
        body.contains("\"working\":true")
    };
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!("GET /api/coach?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let began = Instant::now();
    while !working().await {
        assert!(began.elapsed() < Duration::from_secs(5), "the work never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Some seconds of work, then closed with no linger: a reset.
    tokio::time::sleep(Duration::from_secs(3)).await;
    stream.set_zero_linger().unwrap();
    drop(stream);
    let reset = Instant::now();
    while working().await {
        assert!(reset.elapsed() < Duration::from_secs(3), "still working 3 s after the client went");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The computation itself has ended too, not only the request: it reports nothing more,
    // and the memory it used is given back (a stopped English answer left 0.8 GB held).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!working().await);
    let resident = server.resident_bytes();
    assert!(resident < 200 << 20, "the server still holds {} MB", resident >> 20);
    let (status, _) = get(&format!("{}/api/boards", server.base)).await;
    assert_eq!(status, 200);
}

/// A small position is answered at once while long computations hold every core: it used to
/// wait behind them (a 3-peg position of the smallest triangle answered after 29 s behind two
/// English boards, or refused as busy after 30 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_position_is_answered_while_long_answers_hold_every_core() {
    use std::time::{Duration, Instant};
    let server = Server::start();
    // The European board from its full board: seconds of search before its refusal, one
    // such request for every core (at most 4, for the memory's sake: 1.3 GB each).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    let starts = ["d4", "d1", "c1", "d2"];
    let queries: Vec<String> = starts[..cores].iter().map(|s| format!("board=european&start={s}")).collect();
    let long: Vec<_> = queries
        .iter()
        .map(|q| {
            let url = format!("{}/api/coach?{q}", server.base);
            tokio::spawn(async move { get(&url).await })
        })
        .collect();
    let working = |q: &String| {
        let url = format!("{}/api/progress?{q}", server.base);
        async move { get(&url).await.1.contains(" positions with ") }
    };
    let began = Instant::now();
    for q in &queries {
        while !working(q).await {
            assert!(began.elapsed() < Duration::from_secs(20), "{q} never started on a core");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let (status, body) = get(&format!("{}/api/coach?board=triangle5&start=A&moves=F-C-A", server.base)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"jumps\""), "{body}");
    // Every long answer was still at work when the small one came: it waited for none.
    for q in &queries {
        assert!(working(q).await, "{q} ended before the small answer came");
    }
    for task in long {
        let (status, body) = task.await.unwrap();
        assert_eq!(status, 422, "{body}");
    }
}

/// Requests for the same position at once share one computation: three requests for the full
/// 36-hole triangle less a corner (seconds of search before its refusal) cost about what one
/// request for the corner opposite costs (the same work by symmetry); each did the whole
/// work before, three times over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_for_the_same_position_at_once_share_one_computation() {
    let server = Server::start();
    let ask = |start: &str| {
        let url = format!("{}/api/coach?board=triangle8&start={start}", server.base);
        tokio::spawn(async move { get(&url).await })
    };
    let before = server.cpu_ticks();
    let (status, one) = ask("A").await.unwrap();
    assert_eq!(status, 422, "{one}");
    let alone = server.cpu_ticks() - before;
    let before = server.cpu_ticks();
    let asked: Vec<_> = (0..3).map(|_| ask("AC")).collect();
    for answer in asked {
        assert_eq!(answer.await.unwrap(), (422, one.clone()));
    }
    let together = server.cpu_ticks() - before;
    assert!(together < 2 * alone, "three requests took {together} ticks, one {alone}");
}
