//! Who the client is: the TCP peer, or — only when the peer is a trusted reverse proxy
//! (`serve --trusted-proxy CIDR`) — the right-most address in `X-Forwarded-For` (or
//! `Forwarded: for=`) that is not itself a trusted proxy. From any other peer those
//! headers are ignored, so a client cannot pick its own address for the rate limit or
//! the logs.

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;

/// The networks whose peers may tell the client's address in forwarding headers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    pub fn new(nets: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies(nets)
    }

    /// One CIDR (`10.0.0.0/8`, `::1/128`) or a bare address (a /32 or /128).
    pub fn parse_one(s: &str) -> Result<IpNet, String> {
        let s = s.trim();
        IpNet::from_str(s)
            .or_else(|_| IpAddr::from_str(s).map(IpNet::from))
            .map_err(|_| format!("{s:?} is not a CIDR (10.0.0.0/8, fd00::/8) or an IP address"))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|n| n.contains(&ip))
    }

    /// The client's address for a request from `peer` with these headers.
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.contains(peer) {
            return peer;
        }
        let chain = forwarded_for(headers);
        // Right to left: the proxies appended what they saw; the first hop that is not
        // one of ours is the client. Anything unreadable stops the walk at the last
        // hop we could trust.
        let mut client = peer;
        for entry in chain.iter().rev() {
            let Some(ip) = entry.as_deref().and_then(parse_node) else { break };
            client = ip;
            if !self.contains(ip) {
                break;
            }
        }
        client
    }
}

/// IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack socket reports) as IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The addresses of `X-Forwarded-For` (every header line, in order), else those of
/// `Forwarded`'s `for=` parameters; `None` for an element without one.
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<String>> {
    let lists = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let xff = lists("x-forwarded-for");
    if !xff.is_empty() {
        return xff.into_iter().map(Some).collect();
    }
    lists("forwarded")
        .into_iter()
        .map(|element| {
            element.split(';').find_map(|pair| {
                let (k, v) = pair.split_once('=')?;
                k.trim().eq_ignore_ascii_case("for").then(|| v.trim().trim_matches('"').to_string())
            })
        })
        .collect()
}

/// `203.0.113.9`, `203.0.113.9:4711`, `[2001:db8::1]:4711`, `2001:db8::1`; `None` for
/// `unknown`, obfuscated names (`_hidden`) and garbage.
fn parse_node(s: &str) -> Option<IpAddr> {
    if let Ok(ip) = IpAddr::from_str(s) {
        return Some(canonical(ip));
    }
    if let Some(rest) = s.strip_prefix('[') {
        let (inside, _) = rest.split_once(']')?;
        return IpAddr::from_str(inside).ok().map(canonical);
    }
    SocketAddr::from_str(s).ok().map(|a| canonical(a.ip()))
}

/// The client's address, set on every request by [`resolve`] (`None`: no TCP peer
/// known, as in tests that call the router directly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub Option<IpAddr>);

/// Middleware: works out [`ClientAddr`] once per request.
pub async fn resolve(State(trusted): State<Arc<TrustedProxies>>, mut req: Request, next: Next) -> Response {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let client = peer.map(|p| trusted.client_ip(p, req.headers()));
    req.extensions_mut().insert(ClientAddr(client));
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::new(list.iter().map(|s| TrustedProxies::parse_one(s).unwrap()).collect())
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (n, v) in pairs {
            h.append(*n, v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarding_headers_count_only_from_a_trusted_peer() {
        let t = proxies(&["10.0.0.0/8", "::1"]);
        let h = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(t.client_ip(ip("198.51.100.7"), &h), ip("198.51.100.7"), "forged from outside");
        assert_eq!(t.client_ip(ip("10.1.2.3"), &h), ip("203.0.113.9"));
        assert_eq!(t.client_ip(ip("::1"), &h), ip("203.0.113.9"));
        assert_eq!(t.client_ip(ip("::ffff:10.1.2.3"), &h), ip("203.0.113.9"), "v4-mapped peer");
        assert_eq!(t.client_ip(ip("10.1.2.3"), &HeaderMap::new()), ip("10.1.2.3"), "no header: the proxy");
        assert_eq!(TrustedProxies::default().client_ip(ip("10.1.2.3"), &h), ip("10.1.2.3"));
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let t = proxies(&["10.0.0.0/8"]);
        // The client forged the first entry; our proxies appended the real ones.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.9, 10.0.0.2")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("203.0.113.9"));
        // Several header lines are one list.
        let h = headers(&[("x-forwarded-for", "1.1.1.1"), ("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("203.0.113.9"));
        // Every hop trusted: the left-most.
        let h = headers(&[("x-forwarded-for", "10.0.0.5, 10.0.0.2")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("10.0.0.5"));
        // Garbage stops at the last trusted hop.
        let h = headers(&[("x-forwarded-for", "203.0.113.9, nonsense, 10.0.0.2")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("10.0.0.2"));
    }

    #[test]
    fn forwarded_for_is_read_when_there_is_no_x_forwarded_for() {
        let t = proxies(&["10.0.0.0/8"]);
        let h =
            headers(&[("forwarded", "for=1.1.1.1, for=\"[2001:db8::7]:4711\";proto=https, for=10.0.0.3")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("2001:db8::7"));
        let h = headers(&[("forwarded", "proto=https;for=203.0.113.9:80;by=10.0.0.1")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("203.0.113.9"));
        let h = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(t.client_ip(ip("10.0.0.1"), &h), ip("10.0.0.1"));
    }

    #[test]
    fn cidrs_and_addresses_parse() {
        assert!(TrustedProxies::parse_one("10.0.0.0/8").is_ok());
        assert!(TrustedProxies::parse_one(" 127.0.0.1 ").is_ok());
        assert!(TrustedProxies::parse_one("fd00::/8").is_ok());
        assert!(TrustedProxies::parse_one("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse_one("proxy.example").is_err());
    }
}
