//! The `/api/v1` JSON as the site reads it: every answer and request body is an
//! `api_types` type, the very ones the server serialises (and that reuse `bench`'s serde
//! types for results, tags, flags and summaries), so a change of the API shows up in one
//! place. Here: how errors read to a person, a few formatting helpers, and the HTTP calls
//! (browser only) at the bottom.

use bench::{PlatformGroup, Tags};

pub use api_types::{
    pattern_label, Comparison, DeleteResponse, DriveListView, EditBody, ErrorBody, ErrorItem, Figure,
    FirmwareSeen, ListResponse, OcrJob, PoolCell, ResultView, SubmitBody, SubmitResponse,
};

pub const API: &str = api_types::links::API;
/// Where the server renders the site's tables: `/fragments` + the API path they show.
pub const FRAGMENTS: &str = "/fragments";

/// What went wrong with a request, as the pages show it.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiError {
    /// The server answered with an error status and its error list.
    Status { status: u16, errors: Vec<ErrorItem> },
    /// No answer (server down, offline) or an answer that is not the expected JSON.
    Network(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Status { status, errors } => {
                let details: Vec<String> = errors
                    .iter()
                    .map(|e| match &e.pointer {
                        Some(p) => format!("{} ({p})", e.detail),
                        None => e.detail.clone(),
                    })
                    .collect();
                write!(f, "{} (HTTP {status})", details.join("; "))
            }
            ApiError::Network(m) => write!(f, "{m}"),
        }
    }
}

/// Unix seconds as `YYYY-MM-DD` (UTC).
pub use bench::dates::utc_day as format_date;

/// The platform group of a result in a few words, as the server labels its pools.
pub fn platform_label(tags: &Tags) -> String {
    PlatformGroup::of(tags).label()
}

/// Percent-encodes a path segment or query value: the one rule of `api_types::links`.
pub use api_types::links::encode;

#[cfg(target_arch = "wasm32")]
pub use http::*;

#[cfg(target_arch = "wasm32")]
mod http {
    use super::*;
    use futures::future::{FutureExt, LocalBoxFuture, Shared};
    use gloo_net::http::{Request, Response};
    use serde::de::DeserializeOwned;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// An answer's status and body.
    async fn read(res: Response) -> Result<(u16, String), ApiError> {
        let text = res.text().await.map_err(|e| ApiError::Network(format!("reading the answer: {e}")))?;
        Ok((res.status(), text))
    }

    async fn decode<T: DeserializeOwned>(res: Response) -> Result<T, ApiError> {
        let (status, text) = read(res).await?;
        decode_text(status, &text)
    }

    fn decode_text<T: DeserializeOwned>(status: u16, text: &str) -> Result<T, ApiError> {
        if (200..300).contains(&status) {
            serde_json::from_str(text)
                .map_err(|e| ApiError::Network(format!("unexpected answer from the server: {e}")))
        } else {
            let errors = serde_json::from_str::<ErrorBody>(text).map(|b| b.errors).unwrap_or_else(|_| {
                vec![ErrorItem { detail: format!("the server answered {status}"), pointer: None }]
            });
            Err(ApiError::Status { status, errors })
        }
    }

    fn network(e: gloo_net::Error) -> ApiError {
        ApiError::Network(format!("cannot reach the server: {e}"))
    }

    /// A GET's status and body, shareable between the prefetch and the page that reads it.
    type Answer = Shared<LocalBoxFuture<'static, Result<(u16, Rc<str>), ApiError>>>;

    thread_local! {
        /// GETs started before the page that reads them has loaded (by a lazy route's
        /// `data()`, while the page's code is fetched), by path; each is read once.
        static PREFETCHED: RefCell<Vec<(String, Answer)>> = const { RefCell::new(Vec::new()) };
    }

    /// The answer at `url` that the site's start script began fetching with the page (the
    /// server names it: `<meta name="ssdbase-data">`), taken once; `None` when it did not.
    fn started_with_page(url: &str) -> Option<js_sys::Promise> {
        use wasm_bindgen::JsCast;
        let window = web_sys::window()?;
        let started =
            js_sys::Reflect::get(&window, &"ssdbaseData".into()).ok()?.dyn_into::<js_sys::Map>().ok()?;
        let key = wasm_bindgen::JsValue::from_str(url);
        let answer = started.get(&key).dyn_into::<js_sys::Promise>().ok()?;
        started.delete(&key);
        Some(answer)
    }

    async fn fetch_text(url: String) -> Result<(u16, Rc<str>), ApiError> {
        if let Some(answer) = started_with_page(&url) {
            use wasm_bindgen::JsCast;
            let res = wasm_bindgen_futures::JsFuture::from(answer)
                .await
                .map_err(|e| ApiError::Network(format!("cannot reach the server: {e:?}")))?;
            let (status, text) = read(Response::from(res.unchecked_into::<web_sys::Response>())).await?;
            return Ok((status, text.into()));
        }
        // `no-cache`: the browser asks again every time (a 304 when the answer's ETag still
        // holds), so a page shows the data as it is now, not an answer kept for the
        // five minutes the embeds' `Cache-Control` allows (a rating a moderator has just
        // accepted, a result just stored).
        let request = Request::get(&url).cache(web_sys::RequestCache::NoCache);
        let (status, text) = read(request.send().await.map_err(network)?).await?;
        Ok((status, text.into()))
    }

    /// Starts `GET /api/v1{path}` now, for the next [`get`] of the same path.
    pub fn prefetch(path: &str) {
        let answer = fetch_text(format!("{API}{path}")).boxed_local().shared();
        leptos::task::spawn_local(answer.clone().map(drop));
        PREFETCHED.with_borrow_mut(|p| {
            p.retain(|(k, _)| k != path);
            p.push((path.to_string(), answer));
        });
    }

    /// `GET /api/v1{path}` decoded as `T` (the prefetched answer when there is one).
    pub async fn get<T: DeserializeOwned>(path: &str) -> Result<T, ApiError> {
        let prefetched =
            PREFETCHED.with_borrow_mut(|p| p.iter().position(|(k, _)| k == path).map(|i| p.swap_remove(i).1));
        let (status, text) = match prefetched {
            Some(answer) => answer.await?,
            None => fetch_text(format!("{API}{path}")).await?,
        };
        decode_text(status, &text)
    }

    /// `GET /fragments{path}`: a table or notice as the server renders it; errors as [`get`].
    pub async fn get_fragment(path: &str) -> Result<String, ApiError> {
        let (status, text) = fetch_text(format!("{FRAGMENTS}{path}")).await?;
        if (200..300).contains(&status) {
            Ok(text.to_string())
        } else {
            decode_text::<()>(status, &text).map(|_| String::new())
        }
    }

    /// Corrects a result's tags with its submission's edit token.
    pub async fn edit(id: i64, token: &str, body: &EditBody) -> Result<ResultView, ApiError> {
        let req = Request::patch(&format!("{API}/results/{id}"))
            .header("Authorization", &format!("Bearer {}", token.trim()))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the tags: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    /// Deletes a result with its submission's edit token.
    pub async fn delete(id: i64, token: &str) -> Result<DeleteResponse, ApiError> {
        let res = Request::delete(&format!("{API}/results/{id}"))
            .header("Authorization", &format!("Bearer {}", token.trim()))
            .send()
            .await
            .map_err(network)?;
        decode(res).await
    }

    /// Merges drive `id` into `into` with the admin token (a moderator's).
    pub async fn merge(id: &str, into: &str, token: &str) -> Result<api_types::MergeResponse, ApiError> {
        let body = api_types::MergeBody {
            into: into.to_string(),
            reason: Some("one drive by the identity rules (the duplicates page)".into()),
        };
        let req = Request::post(&format!("{API}/drives/{}/merge", encode(id)))
            .header("Authorization", &format!("Bearer {}", token.trim()))
            .json(&body)
            .map_err(|e| ApiError::Network(format!("cannot encode the merge: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    /// Queues a screenshot (the image bytes as the body) for recognition.
    pub async fn upload_screenshot(bytes: &[u8]) -> Result<OcrJob, ApiError> {
        let body = js_sys::Uint8Array::from(bytes);
        let req = Request::post(&format!("{API}/ocr"))
            .body(body)
            .map_err(|e| ApiError::Network(format!("cannot send the image: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    /// Publishes a checked screenshot reading.
    pub async fn publish_screenshot(body: &SubmitBody) -> Result<SubmitResponse, ApiError> {
        let req = Request::post(&format!("{API}/results"))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the result: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    /// Sends a catalogue proposal (a new drive or a change to one).
    pub async fn propose(body: &api_types::DriveProposal) -> Result<crate::proposal::Stored, ApiError> {
        let req = Request::post(&format!("{API}/proposals"))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the proposal: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    pub async fn submit(body: &SubmitBody) -> Result<SubmitResponse, ApiError> {
        let req = Request::post(&format!("{API}/results"))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the submission: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_escaped() {
        assert_eq!(encode("ASUS U3S6 (Marvell)"), "ASUS%20U3S6%20%28Marvell%29");
        assert_eq!(encode("a&b=c"), "a%26b%3Dc");
    }

    #[test]
    fn api_shapes_decode() {
        let compare = r#"{"drives":[{"id":"a","url":"/api/v1/drives/a","vendor":"Crucial","model":"C300","capacity_gb":64}],
          "pools":[{"drive":"a","platform":{"chipset":"ICH10R","storage_controller":null,"driver":null,"mode":null,"link":null,"host_link":null,"raid_level":null,"raid_members":null},
            "platform_label":"ICH10R","data_pattern":"random","results":3,"result_ids":[1,2,3]}],
          "tests":[{"key":{"family":"cdm-native","access":"seq","block_size":1048576,"queue_depth":1,"threads":1,"op":"read","mix_read_percent":null,"stat":null},
          "name":"SEQ 1MiB Q1T1 read","drives":[{"drive":"a","missing":false,"groups":[{"pool":0,
          "mbps":{"count":2,"median":270.0,"mad":3.0,"min":267.0,"max":273.0},"iops":null,"latency_us":null,"results":2,"result_ids":[1,2]}]},
          {"drive":"b","missing":true,"groups":[]}]}]}"#;
        let c: Comparison = serde_json::from_str(compare).unwrap();
        let cell = &c.tests[0].drives[0].groups[0];
        assert_eq!(cell.mbps.unwrap().count, 2);
        assert_eq!(c.pool_of(cell).unwrap().label(), "ICH10R · random");
        assert_eq!((c.results(cell), c.result_ids(cell)), (2, &[1, 2][..]));
        assert!(c.tests[0].drives[1].missing);
        let err: ErrorBody =
            serde_json::from_str(r#"{"errors":[{"detail":"bad","pointer":"text line 3"}]}"#).unwrap();
        assert_eq!(err.errors[0].pointer.as_deref(), Some("text line 3"));
    }
}
