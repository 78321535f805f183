import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore
import Testing

@testable import SwitchyardHTTP

/// The one table of error code → HTTP status, and the API documentation's list of it (docs/api.md).
struct ErrorCodeTableTests {
    /// Every code and the status it was answered with before codes were typed: the API's promise.
    static let expected: [String: Int] = [
        "bad_request": 400, "duplicate_key": 400, "endpoint_address_forbidden": 400, "invalid_amount": 400,
        "invalid_api_version": 400, "invalid_expand": 400,
        "invalid_base_url": 400, "invalid_country": 400, "invalid_currency": 400, "invalid_customer": 400,
        "invalid_description": 400, "invalid_environment": 400, "invalid_event_types": 400,
        "invalid_expires_at": 400, "invalid_field": 400,
        "invalid_grace": 400, "invalid_idempotency_key": 400, "invalid_json": 400, "invalid_limit": 400,
        "invalid_metadata": 400, "invalid_method": 400, "invalid_name": 400, "invalid_parameter": 400,
        "invalid_policy": 400, "invalid_query": 400, "invalid_reference": 400, "invalid_request": 400,
        "invalid_return_url": 400, "invalid_scopes": 400, "invalid_status": 400, "invalid_tenant": 400,
        "invalid_text": 400, "invalid_webhook_url": 400,
        "missing_credential": 400, "missing_customer": 400, "missing_field": 400, "payment_method_mismatch": 400,
        "unknown_account": 400, "unknown_credential": 400, "unknown_parameter": 400, "unknown_payment_method": 400,
        "vaulting_not_supported": 400,
        "invalid_api_key": 401, "unauthorized": 401,
        "provider_declined": 402,
        "forbidden": 403, "insufficient_scope": 403, "missing_permission": 403,
        "operator_name_taken": 409, "operator_revoked": 409,
        "not_found": 404,
        "method_not_allowed": 405,
        "endpoint_quota_exceeded": 409, "idempotency_in_progress": 409, "idempotency_key_reused": 409,
        "invalid_state": 409, "key_not_usable": 409, "no_session": 409, "no_webhook_endpoint": 409,
        "not_supported": 409, "outcome_unknown": 409, "payment_in_progress": 409, "payment_settled": 409,
        "policy_not_reloadable": 409, "rollout_running": 409, "routing_version_conflict": 409,
        "session_not_renewable": 409,
        "session_expired": 410,
        "body_too_large": 413,
        "unsupported_media_type": 415,
        "credential_is_public_test_value": 422, "invalid_routing": 422, "no_account_for_mode": 422, "no_route": 422,
        "payment_method_unusable": 422,
        "policy_loosened": 422, "refund_exceeds_captured": 422, "refund_exceeds_undisputed": 422, "dispute_closed": 409,
        "dispute_answer_refused": 409,
        "evidence_too_large": 413, "evidence_type_refused": 415, "replay_window_too_large": 422,
        "return_url_required": 422, "unknown_plugin": 422,
        "rate_limited": 429, "replay_quota_exceeded": 429, "too_many_concurrent_requests": 429,
        "internal_error": 500,
        "database_busy": 503, "database_unavailable": 503, "plugin_error": 503, "plugin_unavailable": 503,
        "provider_unreachable": 503, "providers_unavailable": 503, "session_not_renewed": 503,
    ]

    @Test func everyCodeHasItsStatusAndNoOther() {
        var seen: [String: Int] = [:]
        for code in ErrorCode.allCases {
            seen[code.rawValue] = Int(code.httpStatus.code)
        }
        #expect(seen == Self.expected)
        #expect(ErrorCode.allCases.allSatisfy { (400..<600).contains($0.httpStatus.code) })
    }

    /// The codes an `Idempotency-Key` never stores as its answer are exactly those answered with a 5xx.
    @Test func theTransientCodesAreExactlyThoseAnsweredWithA5xx() {
        for code in ErrorCode.allCases {
            #expect(code.isTransient == (code.httpStatus.code >= 500), "\(code)")
        }
    }

    @Test func rawValuesAreUniqueSnakeCase() throws {
        let raw = ErrorCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        let snake = try Regex("^[a-z]+(_[a-z]+)*$")
        for code in raw {
            #expect(code.wholeMatch(of: snake) != nil, "\(code)")
        }
    }

    @Test func errorsRenderTheirCodeWithTheTableStatus() throws {
        for code in ErrorCode.allCases {
            let api = APIError(CoreError(code, "message of \(code)"))
            #expect(api.status == code.httpStatus)
            let data = try IdempotencyGate.envelope(api, requestID: "req-1")
            let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let error = body?["error"] as? [String: Any]
            #expect(error?["code"] as? String == code.rawValue)
            #expect(error?["message"] as? String == "message of \(code)")
            #expect(error?["request_id"] as? String == "req-1")
            #expect(error?["param"] == nil)
        }
    }

    @Test func aFieldAndADeclineRenderAsTheirOwnMembers() throws {
        let field = APIError(CoreError(.invalidMetadata, "too long", param: "metadata.order_no"))
        let decline = APIError(
            CoreError(.providerDeclined, "51: no funds", declineCode: "insufficient_funds", providerCode: "51"))
        let fieldBody = try JSONSerialization.jsonObject(with: IdempotencyGate.envelope(field, requestID: nil))
        let declineBody = try JSONSerialization.jsonObject(with: IdempotencyGate.envelope(decline, requestID: nil))
        let fieldError = (fieldBody as? [String: Any])?["error"] as? [String: Any]
        let declineError = (declineBody as? [String: Any])?["error"] as? [String: Any]
        #expect(fieldError?["param"] as? String == "metadata.order_no")
        #expect(fieldError?["decline_code"] == nil)
        #expect(declineError?["decline_code"] as? String == "insufficient_funds")
        #expect(declineError?["provider_code"] as? String == "51")
        #expect(declineError?["message"] as? String == "51: no funds")
    }

    @Test func frameworkErrorsKeepTheirCodes() {
        let cases: [(HTTPResponse.Status, ErrorCode)] = [
            (.notFound, .notFound), (.methodNotAllowed, .methodNotAllowed), (.contentTooLarge, .bodyTooLarge),
            (.badRequest, .badRequest), (.rangeNotSatisfiable, .badRequest), (.internalServerError, .internalError),
        ]
        for (status, code) in cases {
            let error = APIError(HTTPError(status, message: "m"))
            #expect(error.code == code, "\(status)")
            #expect(error.message == "m")
        }
        #expect(APIError(HTTPError(.notFound)).status == .notFound)
    }

    @Test func theAPIDocumentationListsEveryCodeWithItsStatus() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/api.md"),
            encoding: .utf8)
        let section = try #require(
            readme.components(separatedBy: "<!-- error-codes -->").dropFirst().first?
                .components(separatedBy: "<!-- /error-codes -->").first)
        var listed: [String: Int] = [:]
        let row = try Regex(#"^\| `([a-z_]+)` \| (\d{3}) \|"#)
        for line in section.split(separator: "\n") {
            guard let match = String(line).firstMatch(of: row) else { continue }
            let code = try #require(match.output[1].substring).description
            #expect(listed[code] == nil, "\(code) is listed twice")
            listed[code] = Int(try #require(match.output[2].substring))
        }
        let table = Dictionary(uniqueKeysWithValues: ErrorCode.allCases.map { ($0.rawValue, Int($0.httpStatus.code)) })
        #expect(listed == table)
    }
}
