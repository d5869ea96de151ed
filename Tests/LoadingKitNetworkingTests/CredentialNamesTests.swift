import LoadingKitNetworking
import Testing

/// Which names carry credentials, for what the kit writes to disk: any with a
/// credential word, split at punctuation and case changes, or one the app names.
@Suite("Credential names")
struct CredentialNamesTests {
    @Test(
        "a name is a credential's when one of its words is a credential word",
        arguments: [
            ("Authorization", true), ("Proxy-Authorization", true), ("Cookie", true),
            ("X-API-Key", true), ("x-apikey", true), ("apiKey", true), ("access_token", true),
            ("X-Amz-Signature", true), ("sig", true), ("X-Session-ID", true),
            ("client_secret", true), ("page", false), ("author", false), ("keyword", false),
            ("Idempotency-Key", false), ("If-None-Match", false), ("Accept", false),
        ]
    )
    func words(_ name: String, _ isCredential: Bool) {
        #expect(CredentialNames().contains(name) == isCredential)
    }

    @Test("a name the app gives is a credential's in any case")
    func named() {
        #expect(!CredentialNames().contains("X-Tenant"))
        #expect(CredentialNames(named: ["x-tenant"]).contains("X-Tenant"))
    }
}
