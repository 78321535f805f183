import HTTPTypes
import Hummingbird
import SwitchyardCore

extension APIError {
    /// The API's error for an error the HTTP framework threw (an unknown route, an unreadable parameter):
    /// its status picks the code; a status the API has no code of its own for becomes `bad_request`
    /// (4xx) or `internal_error` (5xx).
    init(_ error: HTTPError) {
        let code: ErrorCode
        switch error.status {
        case .notFound: code = .notFound
        case .methodNotAllowed: code = .methodNotAllowed
        case .contentTooLarge: code = .bodyTooLarge
        case .badRequest: code = .badRequest
        default: code = error.status.code < 500 ? .badRequest : .internalError
        }
        self.init(code, error.body ?? error.status.reasonPhrase)
    }
}
