import AsyncHTTPClient
import NIOCore
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Classifies a failed exchange. `notSent` only when the request head never reached a connection
/// (connection refused, DNS failure, connect or TLS handshake failure or timeout, deadline while
/// still connecting); everything else — and anything in doubt — is `noResponse`.
enum ExchangeFailure {
    static func classify(_ error: any Error, requestHeadSent: Bool) -> OutboundResult {
        if requestHeadSent || onlyAfterSending(error) {
            return OutboundResult(kind: .noResponse, reason: noResponseReason(error))
        }
        return OutboundResult(kind: .notSent, reason: notSentReason(error))
    }

    /// Errors that cannot happen before the request was written.
    private static func onlyAfterSending(_ error: any Error) -> Bool {
        if error is ExchangeDelegate.ResponseTooLarge { return true }
        guard let error = error as? HTTPClientError else { return false }
        return error == .readTimeout || error == .bodyLengthMismatch
    }

    private static func notSentReason(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "connect timeout"
            case .tlsHandshakeTimeout: return "TLS handshake timeout"
            case .getConnectionFromPoolTimeout, .deadlineExceeded: return "deadline exceeded before connecting"
            case .cancelled: return "cancelled before sending"
            case .alreadyShutdown: return "the HTTP client is shut down"
            case .invalidURL, .emptyHost, .emptyScheme: return "invalid URL"
            default: return "not sent (\(error.shortDescription))"
            }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "connection refused"
            case ENETUNREACH, EHOSTUNREACH: return "host unreachable"
            case ETIMEDOUT: return "connect timeout"
            default: return "connect failed (errno \(error.errnoCode))"
            }
        }
        let typeName = String(describing: type(of: error))
        let text = String(describing: error)
        if typeName == "NIOConnectionError" {
            if text.hasPrefix("DNS error") { return "DNS failure" }
            if text.localizedCaseInsensitiveContains("connection refused") { return "connection refused" }
            return "connect failed"
        }
        if typeName.contains("SSL") || typeName.contains("TLS") || typeName.contains("Certificate") {
            return "TLS handshake failed"
        }
        if typeName.contains("Resolution") || typeName.contains("DNS") || typeName.contains("GAI") {
            return "DNS failure"
        }
        return "not sent (\(typeName))"
    }

    private static func noResponseReason(_ error: any Error) -> String {
        if let error = error as? ExchangeDelegate.ResponseTooLarge {
            return "the response is larger than \(error.limit) bytes"
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return "read timeout"
            case .deadlineExceeded: return "deadline exceeded after sending"
            case .remoteConnectionClosed: return "connection closed before a complete response"
            case .cancelled: return "cancelled after sending"
            default: return "no complete response (\(error.shortDescription))"
            }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNRESET: return "connection reset after sending"
            case EPIPE: return "connection closed while sending"
            default: return "no complete response (errno \(error.errnoCode))"
            }
        }
        return "no complete response (\(String(describing: type(of: error))))"
    }
}
