//! hyper answers a request it cannot parse (not HTTP, a head or an address too long) itself,
//! before any handler sees it, with an empty body, and has no hook to change that. This
//! connection wrapper gives those answers the server's one-line JSON error: a response with
//! an error status and `content-length: 0` is hyper's own (every handler's error has a body),
//! so its head is written with the body the status calls for.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose empty error answers get a JSON body.
pub struct JsonErrors<T> {
    inner: T,
    /// The rewritten answer, written before anything else, and how much of it is out.
    pending: Vec<u8>,
    sent: usize,
    /// Whether any byte has been read yet (see [`HTTP2_PREFACE`]).
    read_any: bool,
}

impl<T> JsonErrors<T> {
    pub fn new(inner: T) -> JsonErrors<T> {
        JsonErrors { inner, pending: Vec::new(), sent: 0, read_any: false }
    }
}

/// How an HTTP/2 client opens a connection (`PRI * HTTP/2.0`, RFC 9113, 3.4): hyper, serving
/// HTTP/1 only, closes such a connection without a word, where any other bytes that are not
/// HTTP/1 get a 400. Its method is read in lower case, which hyper refuses as any request
/// of an HTTP version it does not speak: with a 400, which gets its JSON body here.
const HTTP2_PREFACE: &[u8] = b"PRI ";

/// The answer hyper's empty error head `head` stands for, with a JSON body; `None` for any
/// other bytes.
fn rewritten(head: &[u8]) -> Option<Vec<u8>> {
    // Most writes are answers with bodies: two byte tests pass them over.
    if !head.starts_with(b"HTTP/1.1 ") || !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    let status: u16 = text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    let lines: Vec<&str> = text.strip_suffix("\r\n\r\n")?.split("\r\n").collect();
    let empty = lines.iter().any(|l| l.eq_ignore_ascii_case("content-length: 0"));
    if status < 400 || !empty {
        return None;
    }
    let error = match status {
        414 => "the request's address is too long".to_string(),
        431 => {
            "the request's headers are too large or too many (at most 100 lines, 80 KB in all)".to_string()
        }
        _ => format!("not a request the server can read ({})", &lines[0]["HTTP/1.1 ".len()..]),
    };
    let body = serde_json::json!({ "error": error }).to_string();
    let kept = lines.iter().skip(1).filter(|l| !l.to_ascii_lowercase().starts_with("content-length:"));
    let mut out = String::from(lines[0]);
    for line in kept {
        out += &format!("\r\n{line}");
    }
    out += &format!("\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}", body.len());
    Some(out.into_bytes())
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Writes out what is pending; ready once nothing is.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(answer) = rewritten(buf) {
            // Taken whole: hyper's bytes are answered for by the rewritten ones.
            (self.pending, self.sent) = (answer, 0);
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // An error head comes alone (it has no body); anything else goes through as it is.
        match bufs.iter().find(|b| !b.is_empty()) {
            Some(first) if rewritten(first).is_some() => self.poll_write(cx, first),
            _ => {
                ready!(self.poll_pending(cx))?;
                Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        let read = &mut buf.filled_mut()[before..];
        if !self.read_any && !read.is_empty() {
            self.read_any = true;
            if read.starts_with(HTTP2_PREFACE) {
                read[..3].make_ascii_lowercase();
            }
        }
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::rewritten;

    #[test]
    fn only_empty_error_answers_are_rewritten() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(rewritten(head).unwrap()).unwrap();
        let body = r#"{"error":"the request's headers are too large or too many (at most 100 lines, 80 KB in all)"}"#;
        assert_eq!(
            answer,
            format!(
                "HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ndate: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            )
        );
        let bad = rewritten(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").unwrap();
        assert!(
            String::from_utf8(bad)
                .unwrap()
                .ends_with(r#"{"error":"not a request the server can read (400 Bad Request)"}"#)
        );
        // Answers with a body, successes, and bytes that are not a whole head pass as they are.
        assert!(rewritten(b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n").is_none());
        assert!(rewritten(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(rewritten(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n").is_none());
        assert!(rewritten(br#"{"error":"x"}"#).is_none());
    }
}
