import Foundation

/// The merchant's answer to a dispute, as the provider's plugin is asked to send it.
public enum DisputeAnswer: Sendable, Equatable {
    /// The merchant does not defend the dispute.
    case accept
    /// The merchant's evidence, submitted for the provider's review.
    case evidence([EvidenceFile])
}

/// What the provider made of the merchant's answer.
public enum DisputeAnswerResult: Sendable, Equatable {
    /// The provider took it.
    case done
    /// The provider has no API for it (or the plugin does not offer it): the merchant answers at the provider.
    case unsupported
    /// The provider refused it (past the deadline, a bad document, already answered), with its code.
    case refused(code: String, message: String)
    /// The provider's answer is unknown (no answer, an error of its own): the answer may or may not have
    /// reached it, so the request is to be sent again (providers refuse a repeat as such).
    case unknown(String)
}

/// One evidence document.
public struct EvidenceFile: Sendable, Equatable {
    /// The MIME type, one of ``DisputeEvidenceRules/types``.
    public var type: String
    /// The file name the merchant gave.
    public var name: String
    public var data: [UInt8]

    public init(type: String, name: String, data: [UInt8]) {
        self.type = type
        self.name = name
        self.data = data
    }
}

/// What Switchyard did with the merchant's last answer, shown on the dispute.
public struct DisputeResponse: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable {
        case accept
        case evidence
    }

    /// How the answer reaches the provider.
    public enum Channel: String, Codable, Sendable {
        /// Sent through the provider's API by its plugin.
        case providerAPI = "provider_api"
        /// The provider has no API for it: the merchant answers in the provider's own dashboard, by letter
        /// or by email, and the provider's notifications report the result.
        case respondAtProvider = "respond_at_provider"
    }

    public var action: Action
    public var channel: Channel
    public var message: String
    public var at: Date

    public init(action: Action, channel: Channel, message: String, at: Date) {
        self.action = action
        self.channel = channel
        self.message = message
        self.at = at
    }
}

/// The limits evidence documents must keep.
public enum DisputeEvidenceRules {
    /// The document types accepted.
    public static let types = ["application/pdf", "image/jpeg", "image/png"]
    /// The most documents one dispute holds staged.
    public static let maximumFiles = 10
    /// The longest file name accepted.
    public static let maximumNameLength = 200

    /// Refuses a document that is not one of ``types``, is empty or larger than `maximumBytes`, or whose name
    /// is empty or too long; `index` names it in the error's `param`.
    public static func check(_ file: EvidenceFile, index: Int, maximumBytes: Int) throws {
        let at = "files[\(index)]"
        guard types.contains(file.type) else {
            throw CoreError(
                .evidenceTypeRefused, "\(at).type must be one of \(types.joined(separator: ", "))",
                param: "\(at).type")
        }
        guard !file.data.isEmpty, file.data.count <= maximumBytes else {
            throw CoreError(
                .evidenceTooLarge,
                "\(at).data must hold 1 to \(maximumBytes) bytes (it holds \(file.data.count))",
                param: "\(at).data")
        }
        guard !file.name.isEmpty, file.name.count <= maximumNameLength,
            !file.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CoreError(
                .invalidField, "\(at).name must be 1 to \(maximumNameLength) printable characters",
                param: "\(at).name")
        }
    }
}
