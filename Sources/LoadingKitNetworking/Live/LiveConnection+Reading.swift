import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveConnection {
    /// A connection's request, and the credential it carries.
    struct Sent: Sendable {
        let request: URLRequest
        /// The credential, with an authenticator.
        let stamp: Authenticator.Stamp?
        /// Whether the credential was just renewed for a `401`: refused again, it is
        /// not renewed a second time.
        let isRenewed: Bool
    }

    /// How a connection ended, and where the stream stands after it.
    struct Outcome: Sendable {
        let ending: Ending
        /// Whether the head was the stream's and the body was read.
        let delivered: Bool
        let lastEventID: String
        let reconnectionTime: Duration?
    }

    /// Sends `sent`, judges the head and reads the body, handing each event to the
    /// followers and the store.
    func read(
        _ sent: Sent,
        through transport: any StreamingTransport,
        resumingAfter lastEventID: String,
        watchedBy watch: IdleWatch?
    ) async -> Outcome {
        let reading = SharedFramer(live.framing.framer(lastEventID: lastEventID))
        func outcome(_ ending: Ending, delivered: Bool = false) -> Outcome {
            Outcome(
                ending: ending,
                delivered: delivered,
                lastEventID: reading.framer.lastEventID,
                reconnectionTime: reading.framer.reconnectionTime
            )
        }
        // Nobody follows any more: nothing is sent.
        guard !Task.isCancelled else { return outcome(.cancelled) }
        let body: ResponseBody
        let response: HTTPURLResponse
        do {
            (body, response) = try await open(sent, through: transport)
        } catch {
            return outcome(ended(by: error, of: sent, watchedBy: watch))
        }
        watch?.touch()
        if let ending = await judge(response, of: sent, body: body) {
            return outcome(ending)
        }
        enter(.connected)
        report(.liveConnected)
        // Each chunk is framed and delivered on the transport's thread as it arrives; a
        // follower far behind holds the chunks after it — in memory, then in files —
        // until this task drains them.
        let relay = body.chunkRelay
        let stopReading: @Sendable () -> Void = {
            body.cancel()
            relay.cancel()
        }
        // A byte counts for the idle timeout when it arrives, not when a follower far
        // behind lets it be read; once the body ended, the silence while the chunks kept
        // are read is no dead connection.
        relay.start(
            { [self] chunk in
                let events = try reading.framer.parse(chunk)
                guard !events.isEmpty else { return false }
                deliver(events, from: sent)
                return hasFollowerBehind
            },
            arrived: { watch?.touch() },
            ended: { watch?.stopWatching() }
        )
        do {
            let end = try await withTaskCancellationHandler {
                while true {
                    switch try await relay.drain() {
                    case .holding:
                        await waitForFollowers()
                    case .ended(let end):
                        return end
                    }
                }
            } onCancel: {
                stopReading()
            }
            if Task.isCancelled {
                return outcome(
                    ended(by: CancellationError(), of: sent, watchedBy: watch),
                    delivered: true
                )
            }
            if let end {
                throw end
            }
            deliver(reading.framer.finish(), from: sent)
            return outcome(.interrupted(.ended, retryAfter: nil), delivered: true)
        } catch let error as LiveStreamError {
            stopReading()
            return outcome(.stopped(.failed(error)), delivered: true)
        } catch {
            // The transfer may go on: the body's end can be the relay's, which could not
            // keep a chunk.
            stopReading()
            // A follower still far behind would make the next connection keep as much
            // again: it catches up first.
            await waitForFollowers()
            return outcome(ended(by: error, of: sent, watchedBy: watch), delivered: true)
        }
    }

    /// Sends the request, marking the credential's fields for the transport, which
    /// drops them on a redirect to another origin.
    private func open(
        _ sent: Sent,
        through transport: any StreamingTransport
    ) async throws -> (ResponseBody, HTTPURLResponse) {
        guard let credential = sent.stamp?.credential else {
            return try await transport.stream(sent.request)
        }
        return try await URLSessionTransport.$credentialFields.withValue(
            Set(credential.headerFields.keys)
        ) { try await transport.stream(sent.request) }
    }

    /// How the connection ends for `error`: silent too long, nobody follows, or a
    /// failure a reconnection may mend.
    private func ended(
        by error: any Error,
        of sent: Sent,
        watchedBy watch: IdleWatch?
    ) -> Ending {
        if watch?.hasFired == true {
            return .interrupted(.idle, retryAfter: nil)
        }
        if Task.isCancelled {
            return .cancelled
        }
        let failure = WebserviceError(transportError: error, url: sent.request.url, method: .get)
        return .interrupted(.failed(.webservice(failure)), retryAfter: nil)
    }

    /// How a connection whose head is `response` ends at once, or `nil` when its body is
    /// the stream: `204` stops; an expired credential (a `401` by default) renews it
    /// once; `429`, `503` and other `5xx` are tried again after a wait, honouring
    /// `Retry-After`; any other status but `200`, or a `Content-Type` not the
    /// framing's, stops.
    private func judge(_ response: HTTPURLResponse, of sent: Sent, body: ResponseBody) async
        -> Ending?
    {
        let status = response.statusCode
        if status == 200,
            live.framing.accepts(contentType: response.value(forHTTPHeaderField: "Content-Type"))
        {
            return nil
        }
        if status == 204 {
            body.cancel()
            return .stopped(.noContent)
        }
        if let stamp = sent.stamp, let authenticator = webservice.configuration.authenticator,
            authenticator.isExpired(response)
        {
            body.cancel()
            if sent.isRenewed {
                authenticator.refuse(stamp)
                return .stopped(.failed(.webservice(.authentication(.refused))))
            }
            switch await authenticator.renewed(after: stamp) {
            case .success(let renewed): return .renewed(renewed)
            case .failure(let failure):
                return .stopped(.failed(.webservice(.authentication(failure))))
            }
        }
        guard status != 200 else {
            body.cancel()
            return .stopped(
                .failed(.unexpectedContentType(response.value(forHTTPHeaderField: "Content-Type")))
            )
        }
        let data = await Self.prefix(of: body, bytes: 16 << 10)
        let failure = LiveStreamError.webservice(.status(response, body: data, method: .get))
        guard status == 429 || (500..<600).contains(status) else {
            return .stopped(.failed(failure))
        }
        let clock = webservice.configuration.clock
        let retryAfter =
            [429, 503].contains(status)
            ? RetryAfter(response: response).map { $0.delay(from: clock.dateNow) } : nil
        return .interrupted(.failed(failure), retryAfter: retryAfter)
    }

    /// The first `bytes` of an error's body, for its status failure; the transfer is
    /// stopped after.
    private static func prefix(of body: ResponseBody, bytes: Int) async -> Data {
        var data = Data()
        do {
            for try await chunk in body {
                data.append(chunk.prefix(bytes - data.count))
                if data.count >= bytes { break }
            }
        } catch {}
        body.cancel()
        return data
    }

    /// Hands `events` to the store, once for all followers, and to the followers.
    private func deliver(_ events: [ServerSentEvent], from sent: Sent) {
        guard !events.isEmpty else { return }
        // The events arrived after every request numbered before now was sent.
        let storeUpdates = live.storeUpdates
        let sequence = storeUpdates == nil ? 0 : webservice.store.nextSequence()
        var updates: [LiveUpdate<Event>] = []
        updates.reserveCapacity(events.count)
        for raw in events {
            do {
                let value = try live.decode(raw)
                if let storeUpdates {
                    for update in storeUpdates(value) {
                        update.apply(webservice, sequence)
                    }
                }
                updates.append(.event(raw, value))
            } catch {
                let failure = WebserviceError(
                    parseError: error,
                    url: sent.request.url,
                    method: .get
                )
                updates.append(.undecodable(raw, .webservice(failure)))
            }
        }
        tell(updates)
    }
}

/// A connection's framer, used by one thread at a time: the transport's while the chunk
/// relay hands it chunks as they arrive, the reading task's while it drains those held —
/// the relay's lock orders the two.
final class SharedFramer: @unchecked Sendable {
    var framer: LiveFraming.Framer

    init(_ framer: LiveFraming.Framer) {
        self.framer = framer
    }
}
