//! The OpenAPI 3.1 document of `/api/v1`, served at `GET /api/v1/openapi.json`.
//!
//! Routes are registered only through `utoipa_axum::routes!` from handlers annotated
//! with `#[utoipa::path]`, so a route cannot exist without its description; a route's
//! query parameters are the typed struct its handler reads (`api::extract::TypedQuery`),
//! filters included. What the annotations cannot say without repeating the code is
//! added here: the parser formats, the security schemes, and the errors every route can
//! answer (408, 413, 429, 500).
//! Paths are relative to the server URL `/api/v1` (in `servers`).

use crate::error::ErrorBody;
use axum::body::Bytes;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde_json::json;
use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, Schema, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, RefOr, Required, ResponseBuilder};
use utoipa::{OpenApi as _, ToSchema};

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "SSDBase API",
        description = "Publish, browse and compare SSD benchmark results. Every 4xx and 5xx \
            answer is JSON (`ErrorBody`: `{\"errors\":[{\"detail\": ..., \"pointer\": ...}]}`) saying \
            what was wrong and where (a field's path, or a line of an uploaded file).\n\n\
            Bodies over the server's limit (4 MiB by default) get 413, requests over 30 s 408, and a \
            client over a rate limit 429 with `Retry-After`. Text is stored exactly as sent, except \
            U+0000 (NUL), refused with 422 on both backends. CSV cells that look like formulas get a \
            leading apostrophe. Chart images carry an `ETag`; `If-None-Match` with it answers 304. \
            Corrections and deletions take the result's edit token, moderation the admin token, \
            both as `Authorization: Bearer`.",
    ),
    servers((url = "/api/v1", description = "This server")),
    tags(
        (name = "results", description = "Submit, browse, correct and delete results"),
        (name = "moderation", description = "Hide and restore results, decide catalogue proposals, merge drives (admin token)"),
        (name = "catalogue", description = "Propose new drives and changes to drives, and read the catalogue's history"),
        (name = "drives", description = "The drive catalogue, drive pages and comparisons"),
        (name = "ocr", description = "Read CrystalDiskMark and KDiskMark screenshots"),
        (name = "meta", description = "Health and this document"),
    )
)]
struct ApiDoc;

/// The document the routers' paths are merged into.
pub fn base() -> OpenApi {
    ApiDoc::openapi()
}

/// The serialised document, shared by every request.
#[derive(Clone)]
pub struct Served(Bytes);

impl Served {
    pub fn new(doc: &OpenApi) -> Served {
        Served(Bytes::from(doc.to_json().expect("the OpenAPI document serialises")))
    }
}

/// This document
///
/// The OpenAPI 3.1 description of every route of `/api/v1`.
#[utoipa::path(
    get,
    path = "/openapi.json",
    operation_id = "openapi_document",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI 3.1 document", body = Object))
)]
pub async fn serve(Extension(Served(doc)): Extension<Served>) -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], doc).into_response()
}

/// Completes the collected document: security schemes, table-driven query parameters,
/// parser formats and the errors every route shares.
pub fn finish(mut doc: OpenApi) -> OpenApi {
    let components = doc.components.get_or_insert_with(Default::default);
    let bearer = |description: &str| {
        SecurityScheme::Http(
            HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some(description)).build(),
        )
    };
    components.add_security_scheme(
        "edit_token",
        bearer("The secret edit token answered with the submission (`edit_token`)."),
    );
    components.add_security_scheme(
        "admin_token",
        bearer("The moderator's token, set with `--admin-token` or `SSDBASE_ADMIN_TOKEN`."),
    );
    // The parser formats a submission may name instead of auto-detection (JSON may say
    // null for none; a multipart part cannot).
    let formats = || bench::Format::ALL.iter().map(|f| json!(f.id()));
    for (name, values) in [
        ("SubmitBody", formats().chain([serde_json::Value::Null]).collect::<Vec<_>>()),
        ("SubmitForm", formats().collect()),
    ] {
        let object = match components.schemas.get_mut(name) {
            Some(RefOr::T(Schema::Object(object))) => object,
            _ => panic!("{name} is an object schema"),
        };
        match object.properties.get_mut("format") {
            Some(RefOr::T(Schema::Object(format))) => format.enum_values = Some(values),
            _ => panic!("{name}.format is an object schema"),
        }
    }

    // The errors every route can answer.
    for item in doc.paths.paths.values_mut() {
        for op in operations(item) {
            if op.request_body.is_some() {
                add_error(op, 413, "The request body is larger than the limit (4 MiB by default)");
            }
            add_error(op, 408, "The request took longer than the time limit (30 s by default)");
            add_error(op, 500, "Internal error (details only in the server's log)");
        }
        // Every write counts against the client's write rate (`serve --write-rate`).
        for op in [&mut item.put, &mut item.post, &mut item.delete, &mut item.patch].into_iter().flatten() {
            add_error(
                op,
                429,
                "This client made too many write requests; `Retry-After` says when to try again",
            );
        }
    }
    let ocr = doc.paths.paths.get_mut("/ocr").and_then(|i| i.post.as_mut()).expect("POST /ocr");
    if let Some(RefOr::T(body)) = ocr.request_body.as_mut() {
        body.required = Some(Required::True);
    }
    // A multipart submission has no parts but these (`submit::read_multipart`).
    if let Some(RefOr::T(Schema::Object(form))) =
        doc.components.as_mut().and_then(|c| c.schemas.get_mut("SubmitForm"))
    {
        form.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
    }
    // No text the server stores may hold NUL (U+0000): PostgreSQL cannot store it, and
    // `ingest::check_storable` refuses it on both backends.
    if let Some(components) = doc.components.as_mut() {
        for name in STORED_TEXT {
            if let Some(schema) = components.schemas.get_mut(*name) {
                forbid_nul(schema);
            }
        }
    }
    add_links(&mut doc);
    doc
}

/// The request schemas whose text is stored.
const STORED_TEXT: &[&str] = &[
    "Tags",
    "DriveTag",
    "ControllerTag",
    "NandTag",
    "Platform",
    "Conditions",
    "Raid",
    "SubmitBody",
    "SubmitRequest",
    "SubmitForm",
    "EditBody",
    "ModerationBody",
    "HideBody",
    "BenchResult",
    "Metric",
    "Correction",
];

const NO_NUL: &str = "^[^\\u0000]*$";

/// Adds the no-NUL pattern to every free string of `schema` (not enumerations, formats
/// or strings that already have a pattern), and closes its objects to other fields.
fn forbid_nul(schema: &mut RefOr<Schema>) {
    let RefOr::T(schema) = schema else { return };
    match schema {
        Schema::Object(o) => {
            let is_string = matches!(&o.schema_type, SchemaType::Type(Type::String))
                || matches!(&o.schema_type, SchemaType::Array(types) if types.contains(&Type::String));
            if is_string && o.enum_values.is_none() && o.format.is_none() && o.pattern.is_none() {
                o.pattern = Some(NO_NUL.to_string());
            }
            // The handlers read these objects field by field: the document lists every
            // field, and a request with others is outside it.
            if matches!(&o.schema_type, SchemaType::Type(Type::Object)) && !o.properties.is_empty() {
                o.additional_properties.get_or_insert(Box::new(AdditionalProperties::FreeForm(false)));
            }
            for p in o.properties.values_mut() {
                forbid_nul(p);
            }
        }
        Schema::Array(a) => {
            if let ArrayItems::RefOrSchema(items) = &mut a.items {
                forbid_nul(items);
            }
        }
        Schema::OneOf(o) => o.items.iter_mut().for_each(forbid_nul),
        Schema::AllOf(o) => o.items.iter_mut().for_each(forbid_nul),
        Schema::AnyOf(o) => o.items.iter_mut().for_each(forbid_nul),
        _ => {}
    }
}

/// OpenAPI links from the operations that create results and screenshot jobs to those
/// that take their ids (what clients and stateful testers follow).
fn add_links(doc: &mut OpenApi) {
    let link = |op: &str| LinkBuilder::new().operation_id(op).parameter("id", "$response.body#/id").build();
    let result_ops = [
        "get_result",
        "edit_result",
        "delete_result",
        "hide_result",
        "restore_result",
        "get_result_upload",
        "result_preview_png",
    ];
    let ocr_ops = ["get_screenshot_job", "get_screenshot_image"];
    for (path, status, ops) in [("/results", "201", &result_ops[..]), ("/ocr", "202", &ocr_ops[..])] {
        let op = doc.paths.paths.get_mut(path).and_then(|i| i.post.as_mut()).expect("a creating POST");
        if let Some(RefOr::T(response)) = op.responses.responses.get_mut(status) {
            for target in ops {
                response.links.insert(target.to_string(), RefOr::T(link(target)));
            }
        }
    }
}

fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch]
        .into_iter()
        .filter_map(Option::as_mut)
}

/// Adds an `ErrorBody` answer for `status` unless the annotation has one.
fn add_error(op: &mut Operation, status: u16, description: &str) {
    op.responses.responses.entry(status.to_string()).or_insert_with(|| {
        ResponseBuilder::new()
            .description(description)
            .content("application/json", ContentBuilder::new().schema(Some(error_body())).build())
            .build()
            .into()
    });
}

fn error_body() -> RefOr<Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(ErrorBody::name()))
}
