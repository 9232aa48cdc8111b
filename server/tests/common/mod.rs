//! Helpers for tests that run the real `ssdbase serve` binary and talk HTTP/1.1 to it
//! over real TCP connections (through ureq).

#![allow(dead_code)] // each test binary uses its own subset

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A real CrystalDiskMark 3 export whose sequential read is `SEQREAD`: replace it to
/// make each submission distinct (durability, backup and dump tests).
pub const CDM3_TEMPLATE: &str = "\
-----------------------------------------------------------------------
CrystalDiskMark 3.0.1 x64 (C) 2007-2010 hiyohiyo
                           Crystal Dew World : http://crystalmark.info/
-----------------------------------------------------------------------
* MB/s = 1,000,000 byte/s [SATA/300 = 300,000,000 byte/s]

           Sequential Read :   SEQREAD MB/s
          Sequential Write :   189.856 MB/s
         Random Read 512KB :   381.142 MB/s
        Random Write 512KB :   190.461 MB/s
    Random Read 4KB (QD=1) :    25.206 MB/s [  6153.8 IOPS]
   Random Write 4KB (QD=1) :    63.703 MB/s [ 15552.6 IOPS]
   Random Read 4KB (QD=32) :   271.859 MB/s [ 66371.9 IOPS]
  Random Write 4KB (QD=32) :   174.695 MB/s [ 42650.1 IOPS]

  Test : 1000 MB [C: 33.0% (39.3/119.1 GB)] (x5)
  Date : 2012/02/15 20:39:27
    OS : Windows 7 Ultimate Edition SP1 [6.1 Build 7601] (x64)
";

/// Starts `ssdbase serve` on a free port with extra arguments and environment, and
/// returns it with the address it serves (read from its start-up line).
pub fn start_server(database_url: &str, args: &[&str], env: &[(&str, &str)]) -> (Child, SocketAddr) {
    let (child, addr, _) = start_server_logged(database_url, args, env);
    (child, addr)
}

/// [`start_server`], also returning its stderr lines: those printed before it served,
/// and every later one as it comes.
pub fn start_server_logged(
    database_url: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Child, SocketAddr, Arc<Mutex<Vec<String>>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .args(["serve", "--database-url", database_url, "--listen", "127.0.0.1:0"])
        .args(args)
        // No open-data dumps into the test's working directory unless a test asks.
        .env("SSDBASE_DUMP_EVERY_HOURS", "0")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let addr = loop {
        let line = lines.next().expect("the server exited before serving").unwrap();
        if let Some(addr) = logged_address(&line, "serving") {
            break addr;
        }
        log.lock().unwrap().push(line);
    };
    // Keep draining stderr so the server never blocks on a full pipe.
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    (child, addr, log)
}

/// The address of `http://ADDR/...` in a log line (text or JSON) that says `what`.
pub fn logged_address(line: &str, what: &str) -> Option<SocketAddr> {
    let at = line.find(what)?;
    let rest = &line[at..];
    let url = &rest[rest.find("http://")? + "http://".len()..];
    url.split('/').next()?.parse().ok()
}

pub struct HttpReply {
    pub status: u16,
    /// Header lines, names lowercased: `("retry-after", "12")`.
    pub headers: Vec<(String, String)>,
    /// The body as text (invalid UTF-8 replaced); `bytes` as sent.
    pub body: String,
    pub bytes: Vec<u8>,
}

impl HttpReply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.bytes).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The `Host` the client sends: the server's link previews and oEmbed name pages by it.
pub const HOST: &str = "test";

/// One request over a fresh connection (`Connection: close`). `None` unless the whole
/// answer arrived (a server killed mid-request gives `None`).
pub fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: impl AsRef<[u8]>,
) -> Option<HttpReply> {
    request(addr, method, path, headers, body.as_ref(), Duration::from_secs(20)).ok()
}

/// [`http`] saying what went wrong when the whole answer did not arrive (the soak test
/// reports it), waiting at most `read_timeout` for the answer. Through ureq (the runner's
/// own HTTP client): every status is an answer, not an error; no compression is asked
/// for, so the body is what the server sent for such a client; a body shorter than its
/// `Content-Length` or a broken chunked body is an error.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    read_timeout: Duration,
) -> Result<HttpReply, String> {
    assert!(addr.ip().is_loopback(), "tests only talk to loopback");
    // A fresh agent per request: one connection each, closed after, as `Connection: close`.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        // Made-up methods are part of what the tests send (they must get a 405).
        .allow_non_standard_methods(true)
        .accept_encoding(ureq::config::AutoHeaderValue::None)
        .timeout_connect(Some(Duration::from_secs(5)))
        .timeout_recv_response(Some(read_timeout))
        .timeout_recv_body(Some(read_timeout))
        .build()
        .into();
    let mut req = ureq::http::Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"))
        .header("Host", HOST);
    for (n, v) in headers {
        req = req.header(*n, *v);
    }
    let req = req.body(body.to_vec()).map_err(|e| format!("request: {e}"))?;
    let mut answer = agent.run(req).map_err(|e| e.to_string())?;
    let status = answer.status().as_u16();
    let headers: Vec<(String, String)> = answer
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().to_string(), String::from_utf8_lossy(v.as_bytes()).trim().to_string()))
        .collect();
    let bytes =
        answer.body_mut().with_config().limit(u64::MAX).read_to_vec().map_err(|e| format!("read: {e}"))?;
    Ok(HttpReply { status, headers, body: String::from_utf8_lossy(&bytes).into_owned(), bytes })
}

/// The shared corpus folder: `$SSDBASE_SHARED`, or `shared/` in the nearest ancestor of
/// this crate that has one.
pub fn shared() -> PathBuf {
    if let Some(dir) = std::env::var_os("SSDBASE_SHARED") {
        return dir.into();
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while dir.pop() {
        if dir.join("shared/corpus").is_dir() {
            return dir.join("shared");
        }
    }
    panic!("shared corpus not found: set SSDBASE_SHARED");
}

/// The real PNG screenshots of the shared corpus, in name order.
pub fn screenshots() -> Vec<PathBuf> {
    let mut pngs: Vec<PathBuf> = std::fs::read_dir(shared().join("corpus/screenshots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pngs.sort();
    pngs
}
