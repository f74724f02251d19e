//! A server on this machine's loopback answers only requests addressed to it by an IP address
//! or `localhost`. A web page open elsewhere in the user's browser could otherwise point a
//! name of its own at 127.0.0.1 (DNS rebinding), then ask the server through that name, as
//! its own origin: set it computing and read its answers. A browser always sends the name it
//! asked (the `Host` header), so such requests are refused (403). A server bound to another
//! address (`--host 0.0.0.0`) was opened to the network on purpose and answers any name.
//!
//! Nor does any server answer a request another web site's page made: such a page cannot read
//! the answer (the server allows no other origin), but a plain GET, by a script or an image,
//! would still set the server computing. Browsers say who asks: `Sec-Fetch-Site` (`cross-site`
//! or `same-site` for another page, `same-origin` for the server's own, `none` for an address
//! typed by the user) and, on a script's request, `Origin`. Tools such as curl send neither.
//!
//! The page itself is the exception: a link to it followed from another site (a tutorial's
//! link to http://127.0.0.1:8000/) is a top-level navigation, `Sec-Fetch-Mode: navigate` and
//! `Sec-Fetch-Dest: document`, which no page's script or image can make. The page computes
//! nothing, and its own requests then come from its own origin, so it is served (it was a
//! 403 of raw JSON); the API is not, even to a navigation (a link may set it computing too).

use std::net::IpAddr;

/// Whether a server bound to `bound` answers a request whose `Host` header is `host` (None
/// where the request has none, as HTTP/1.0 allows: no browser sends such a request).
pub fn answered(bound: IpAddr, host: Option<&[u8]>) -> bool {
    // `::ffff:127.0.0.1` is loopback too, though `Ipv6Addr::is_loopback` says not.
    if !bound.to_canonical().is_loopback() {
        return true;
    }
    let Some(host) = host else { return true };
    let Ok(host) = std::str::from_utf8(host) else { return false };
    let name = match host.strip_prefix('[') {
        // An IPv6 address, in brackets, then perhaps a port.
        Some(rest) => return rest.split_once(']').is_some_and(|(ip, _)| ip.parse::<IpAddr>().is_ok()),
        None => host
            .rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map_or(host, |(name, _)| name),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name.parse::<IpAddr>().is_ok() || name == "localhost" || name.ends_with(".localhost")
}

/// Whether a request with these `Origin`, `Sec-Fetch-Site` and `Host` headers comes from the
/// server's own page, the user, or a tool: not from another web site's page.
pub fn from_here(origin: Option<&[u8]>, fetch_site: Option<&[u8]>, host: Option<&[u8]>) -> bool {
    // The browser's own word, which no page can set; it holds behind a proxy that renames
    // the host, where an origin would not match.
    if let Some(site) = fetch_site {
        return matches!(site, b"same-origin" | b"none");
    }
    match origin {
        None => true,
        // A browser older than Sec-Fetch-Site: an origin is `scheme://host[:port]`, the host
        // and port as the page's own `Host`.
        Some(origin) => match (origin.windows(3).position(|w| w == b"://"), host) {
            (Some(at), Some(host)) => origin[at + 3..].eq_ignore_ascii_case(host),
            _ => false,
        },
    }
}

/// Whether a request for `path` with these `Sec-Fetch-Mode` and `Sec-Fetch-Dest` headers is a
/// browser's top-level navigation to the page (`/`), which another site's link may make.
pub fn opens_the_page(path: &str, fetch_mode: Option<&[u8]>, fetch_dest: Option<&[u8]>) -> bool {
    path == "/" && fetch_mode == Some(b"navigate") && fetch_dest == Some(b"document")
}

#[cfg(test)]
mod tests {
    use super::{answered, from_here, opens_the_page};

    #[test]
    fn only_a_top_level_navigation_to_the_page_is_one() {
        let (navigate, document) = (Some(&b"navigate"[..]), Some(&b"document"[..]));
        assert!(opens_the_page("/", navigate, document));
        // A frame, a script's or an image's request, a request that says nothing, the API.
        assert!(!opens_the_page("/", navigate, Some(b"iframe")));
        assert!(!opens_the_page("/", Some(b"no-cors"), Some(b"image")));
        assert!(!opens_the_page("/", Some(b"cors"), Some(b"empty")));
        assert!(!opens_the_page("/", None, None));
        assert!(!opens_the_page("/api/coach", navigate, document));
        assert!(!opens_the_page("/api/boards", navigate, document));
    }

    /// A request's `Origin` and `Sec-Fetch-Site` headers.
    type Asked<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

    #[test]
    fn only_the_servers_own_page_the_user_and_tools_are_answered() {
        let host = Some(&b"127.0.0.1:8000"[..]);
        let yes: [Asked; 6] = [
            (None, None),
            (None, Some(b"same-origin")),
            (None, Some(b"none")),
            (Some(b"http://127.0.0.1:8000"), Some(b"same-origin")),
            (Some(b"http://127.0.0.1:8000"), None),
            // Behind a proxy that renamed the host, the browser's word is taken.
            (Some(b"https://coach.example"), Some(b"same-origin")),
        ];
        for (origin, site) in yes {
            assert!(from_here(origin, site, host), "{origin:?} {site:?}");
        }
        let no: [Asked; 7] = [
            (None, Some(b"cross-site")),
            (None, Some(b"same-site")),
            (Some(b"https://evil.example"), Some(b"cross-site")),
            (Some(b"https://evil.example"), None),
            (Some(b"http://localhost:3000"), None),
            (Some(b"null"), None),
            (Some(b"http://127.0.0.1:8000"), Some(b"cross-site")),
        ];
        for (origin, site) in no {
            assert!(!from_here(origin, site, host), "{origin:?} {site:?}");
        }
        assert!(!from_here(Some(b"http://127.0.0.1:8000"), None, None));
        assert!(from_here(Some(b"http://LOCALHOST:8000"), None, Some(b"localhost:8000")));
    }

    #[test]
    fn loopback_answers_addresses_and_localhost_only() {
        let loopback = "127.0.0.1".parse().unwrap();
        for host in [
            "127.0.0.1:8000",
            "127.0.0.1",
            "localhost:8000",
            "LOCALHOST",
            "localhost.",
            "app.localhost:1",
            "[::1]:8000",
            "[::1]",
            "192.168.1.7:8000",
        ] {
            assert!(answered(loopback, Some(host.as_bytes())), "{host}");
        }
        for host in
            ["evil.example:8000", "evil.example", "localhost.evil.example", "[evil]:80", "x", "", "\u{fffd}"]
        {
            assert!(!answered(loopback, Some(host.as_bytes())), "{host}");
        }
        assert!(!answered(loopback, Some(b"\xff:80")));
        assert!(answered(loopback, None));
        assert!(answered("::1".parse().unwrap(), Some(b"[::1]:80")));
        assert!(!answered("::1".parse().unwrap(), Some(b"evil.example")));
        // Loopback written as an IPv4-mapped address (`--host ::ffff:127.0.0.1`) answered any name.
        let mapped = "::ffff:127.0.0.1".parse().unwrap();
        assert!(!answered(mapped, Some(b"evil.example")));
        assert!(answered(mapped, Some(b"[::ffff:127.0.0.1]:80")));
    }

    #[test]
    fn a_server_open_to_the_network_answers_any_name() {
        for bound in ["0.0.0.0", "192.168.1.7", "::", "::ffff:192.168.1.7"] {
            assert!(answered(bound.parse().unwrap(), Some(b"mymachine.lan:8000")), "{bound}");
        }
    }
}
