import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOCore
import SwitchyardCore
import SwitchyardObservability

/// An error of the HTTP API, rendered as `{"error":{"code":…,"message":…,"request_id":…}}` with its code's
/// status; `param`, `decline_code` and `provider_code` are added when they are known.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    public var code: ErrorCode
    public var message: String
    /// The JSON path of the one request field at fault (`amount`, `metadata.order_no`, `items[2].sku`), or
    /// the name of the query parameter at fault.
    public var param: String?
    /// For a decline: our normalised reason (``SwitchyardCore/DeclineCode``).
    public var declineCode: String?
    /// For a decline: the provider's own code.
    public var providerCode: String?
    /// The individual problems behind the error (e.g. each offending routing rule).
    public var issues: [Issue]?
    /// Seconds after which the request may be retried, sent as `Retry-After`.
    public var retryAfter: Int?

    /// One problem, naming the rule it is about.
    public struct Issue: Codable, Sendable, Equatable {
        var ruleIndex: Int
        var ruleName: String
        var code: String
        var message: String

        enum CodingKeys: String, CodingKey {
            case ruleIndex = "rule_index"
            case ruleName = "rule_name"
            case code, message
        }

        init(_ issue: RoutingIssue) {
            ruleIndex = issue.ruleIndex
            ruleName = issue.ruleName
            code = issue.code
            message = issue.message
        }
    }

    public init(_ code: ErrorCode, _ message: String, param: String? = nil, issues: [Issue]? = nil) {
        self.code = code
        self.message = message
        self.param = param
        self.issues = issues
    }

    public init(_ error: CoreError) {
        self.init(error.code, error.message, param: error.param)
        declineCode = error.declineCode
        providerCode = error.providerCode
    }

    /// The error as the domain names it (its `issues` aside): what a key stores for its replays.
    var coreError: CoreError {
        CoreError(code, message, param: param, declineCode: declineCode, providerCode: providerCode)
    }

    /// The status the code maps to (see ``SwitchyardCore/ErrorCode/httpStatus``).
    public var status: HTTPResponse.Status { code.httpStatus }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let requestID = (context as? AppContext)?.requestID
        var response = JSONIO.response(status, envelope(requestID: requestID))
        if let retryAfter { response.headers[.retryAfter] = String(max(1, retryAfter)) }
        return response
    }

    /// The error's body, naming the request it answers.
    func envelope(requestID: String?) -> Envelope {
        Envelope(
            error: .init(
                code: code, message: message, requestID: requestID, param: param, declineCode: declineCode,
                providerCode: providerCode, issues: issues))
    }

    struct Envelope: Encodable {
        struct Body: Encodable {
            var code: ErrorCode
            var message: String
            var requestID: String?
            var param: String?
            var declineCode: String?
            var providerCode: String?
            var issues: [Issue]?

            enum CodingKeys: String, CodingKey {
                case code, message, param, issues
                case requestID = "request_id"
                case declineCode = "decline_code"
                case providerCode = "provider_code"
            }
        }
        var error: Body
    }

    static let unauthorized = APIError(.unauthorized, "a valid bearer token is required")
    static let forbidden = APIError(.forbidden, "this credential may not do that")
}

/// Renders every error as the API's JSON error shape; unexpected errors become a generic 500 that carries
/// no detail, and are logged.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppContext

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as CoreError {
            return try APIError(error).response(from: request, context: context)
        } catch let error as HTTPError {
            return try APIError(error).response(from: request, context: context)
        } catch is NIOTooManyBytesError {
            return try APIError(.bodyTooLarge, "the request body is too large")
                .response(from: request, context: context)
        } catch let error where ClientDisconnect.matches(error) {
            // The client hung up mid-request: no failure of ours, and nobody to answer.
            return Response(status: ClientDisconnect.status)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as any StorageFailure where error.isBusy {  // a pool or statement timeout
            context.logger.warning("database busy", metadata: ["http.path": "\(request.uri.path)"])
            return try APIError.databaseBusy.response(from: request, context: context)
        } catch let error as any StorageFailure where error.isUnavailable {  // a restart or failover
            context.logger.warning(
                "database unavailable",
                metadata: ["http.path": "\(request.uri.path)", "error.message": "\(error.description)"])
            Counter(label: MetricName.databaseUnavailableResponses).increment()
            return try APIError.databaseUnavailable.response(from: request, context: context)
        } catch let error as any StorageFailure where error.isUnstorableText {
            // Input checks refuse NUL characters up front; this catches any path they miss.
            return try APIError(.invalidText, "a text value contains a character that cannot be stored")
                .response(from: request, context: context)
        } catch {
            var metadata: Logger.Metadata = [
                "error.type": "\(String(describing: type(of: error)))", "http.path": "\(request.uri.path)",
            ]
            // Storage failures carry no parameter values, so their text is safe to log.
            if let error = error as? any StorageFailure { metadata["error.message"] = "\(error.description)" }
            context.logger.error("request failed", metadata: metadata)
            return try APIError(.internalError, "the request could not be completed")
                .response(from: request, context: context)
        }
    }
}
