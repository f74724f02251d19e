//! A `pegchain serve` on a free loopback port for the duration of a test, and a plain HTTP
//! client for it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The server, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server started with these arguments besides `serve --port 0`.
    pub fn start_with(args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pegchain"));
        command.args(["serve", "--port", "0"]).args(args);
        Server::spawn(command)
    }

    /// A server whose address space is held to `bytes` (RLIMIT_AS, as `ulimit -v` sets).
    pub fn start_under_address_limit(bytes: u64) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pegchain"));
        command.args(["serve", "--port", "0"]);
        crate::support::limit_address_space(&mut command, bytes);
        Server::spawn(command)
    }

    fn spawn(mut command: Command) -> Server {
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        // "pegchain: serving the coach on http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .expect("the address")
            .trim_end_matches('/');
        Server { child, base: url.to_string() }
    }
}

impl Server {
    /// The processor time the server has used, in clock ticks (user and system).
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // After the command's name in brackets: state, then 10 fields, then utime and stime.
        let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }

    /// The server's resident memory in bytes (VmRSS).
    pub fn resident_bytes(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
        let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb * 1024
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GET `url`: the status and the body.
pub async fn get(url: &str) -> (u16, String) {
    request("GET", url, Vec::new()).await
}

pub async fn request(method: &str, url: &str, body: Vec<u8>) -> (u16, String) {
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    let client: Client<_, Full<hyper::body::Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let req = hyper::Request::builder().method(method).uri(url).body(Full::new(body.into())).unwrap();
    let response = client.request(req).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}
