#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `answerDispute` flow's request: the merchant's answer to one of the provider's disputes.
public struct DisputeAnswerRequest: Codable, Sendable, Equatable {
    /// What the merchant answers.
    public enum Answer: String, Codable, Sendable {
        /// The merchant does not defend the dispute.
        case accept
        /// The merchant submits ``DisputeAnswerRequest/documents`` as its defence.
        case evidence
    }

    /// One evidence document.
    public struct Document: Codable, Sendable, Equatable {
        /// The MIME type (`application/pdf`, `image/jpeg`, `image/png`).
        public var type: String
        public var name: String
        /// The document's bytes in Base64.
        public var data: String

        public init(type: String, name: String, data: String) {
            self.type = type
            self.name = name
            self.data = data
        }
    }

    /// The provider's id of the dispute, as its notifications named it.
    public var providerDisputeId: String
    public var answer: Answer
    /// The evidence documents (empty for ``Answer/accept``).
    public var documents: [Document]

    public init(providerDisputeId: String, answer: Answer, documents: [Document] = []) {
        self.providerDisputeId = providerDisputeId
        self.answer = answer
        self.documents = documents
    }
}

/// What the provider made of a dispute answer.
public struct DisputeAnswerReply: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// The provider took the answer (or had taken it already: a repeat is not an error).
        case accepted
        /// The provider refused it (past the deadline, a document it does not take); ``code`` says why.
        case refused
        /// The provider's answer is unknown: the request may be sent again.
        case unknown
    }

    public var status: Status
    /// The provider's result code, as it came.
    public var code: String?
    /// The provider's message (no secrets).
    public var message: String?

    public init(status: Status, code: String? = nil, message: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
    }
}
