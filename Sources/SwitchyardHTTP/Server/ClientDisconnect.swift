import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// A client that hung up before its request was read in full. Not a failure of the server: its request
/// is answered (to nobody) with ``status``, logged as a closed request and counted as a 4xx, never a 500.
enum ClientDisconnect {
    /// `499 Client Closed Request`, the status conventionally recorded for such requests.
    static let status = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")

    /// Whether `error`, thrown while reading a request, means the client's connection ended under it: the
    /// connection closed or reset, or its input ended in the middle of a request.
    static func matches(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPParserError:
            return error == .invalidEOFState
        case let error as ChannelError:
            switch error {
            case .eof, .ioOnClosedChannel, .alreadyClosed, .inputClosed, .outputClosed: return true
            default: return false
            }
        case let error as IOError:
            return [ECONNRESET, EPIPE, ECONNABORTED].contains(error.errnoCode)
        default:
            return false
        }
    }
}
