package llm

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
)

// bridgeFor returns a bridge whose every role resolves to the fake server.
func bridgeFor(f *fake, opts Options) *Bridge {
	return NewBridgeWith(&Resolver{Getenv: envOf(map[string]string{EnvBaseURL: f.BaseURL(), EnvModel: "test-model", EnvAPIKey: testKey})}, opts)
}

func req(pluginID, role, text string) plugin.LLMRequest {
	return plugin.LLMRequest{PluginID: pluginID, Role: role, Messages: msgs(text)}
}

func TestBridgeResolvesPerRequest(t *testing.T) {
	f := newFake(t, step{})
	g := newFake(t, step{body: okReply("from override")})
	ms := plugin.ModelSettings{
		Roles:           map[string]plugin.RoleSetting{plugin.RoleValidation: {Model: "val-model", MaxTokens: 33}},
		PluginOverrides: map[string]plugin.RoleSetting{"special": {BaseURL: g.BaseURL()}},
	}
	b := NewBridgeWith(&Resolver{Settings: ms, Getenv: envOf(map[string]string{EnvBaseURL: f.BaseURL(), EnvModel: "test-model"})}, testOpts(nil))

	r, err := b.Complete(context.Background(), req("val-llm", plugin.RoleValidation, "ok?"))
	require.NoError(t, err)
	assert.Equal(t, "hello", r.Text)
	assert.Equal(t, "val-model", f.last().Body.Model)
	assert.Equal(t, 33, *f.last().Body.MaxTokens)

	r, err = b.Complete(context.Background(), req("special", plugin.RoleGoalFast, "hi"))
	require.NoError(t, err)
	assert.Equal(t, "from override", r.Text)
	assert.Equal(t, "test-model", g.last().Body.Model)

	c, err := b.Client("val-llm", plugin.RoleValidation)
	require.NoError(t, err)
	assert.Equal(t, "val-model", c.Model())

	// A request override applies below the role.
	b2 := b.WithRequest(plugin.RoleSetting{Model: "req-model"})
	_, err = b2.Complete(context.Background(), req("gs-llm-fast", plugin.RoleGoalFast, "hi"))
	require.NoError(t, err)
	assert.Equal(t, "req-model", f.last().Body.Model)
	_, err = b2.Complete(context.Background(), req("val-llm", plugin.RoleValidation, "hi"))
	require.NoError(t, err)
	assert.Equal(t, "val-model", f.last().Body.Model)

	// Unconfigured: a clear error, nothing sent.
	empty := NewBridgeWith(&Resolver{Getenv: envOf(nil)}, Options{})
	assert.False(t, empty.AnyConfigured())
	assert.False(t, empty.Configured("gs-llm-fast", plugin.RoleGoalFast))
	_, err = empty.Complete(context.Background(), req("gs-llm-fast", plugin.RoleGoalFast, "hi"))
	assert.True(t, IsNotConfigured(err))
	assert.Contains(t, err.Error(), "gs-llm-fast")
	assert.Contains(t, err.Error(), Hint)
}

func TestMeterBudget(t *testing.T) {
	f := newFake(t, step{})
	m := NewMeter(bridgeFor(f, testOpts(nil)), 2)
	assert.Equal(t, 2, m.Remaining())
	ctx := context.Background()

	_, err := m.Complete(ctx, req("sd-llm-fast", plugin.RoleSeedFast, "a"))
	require.NoError(t, err)
	assert.Equal(t, 1, m.Remaining())
	_, err = m.Complete(ctx, req("gs-llm-fast", plugin.RoleGoalFast, "b"))
	require.NoError(t, err)
	assert.Equal(t, 0, m.Remaining())

	_, err = m.Complete(ctx, req("val-llm", plugin.RoleValidation, "c"))
	require.Error(t, err)
	assert.True(t, IsBudget(err))
	assert.ErrorIs(t, err, ErrBudget)
	assert.Equal(t, CodeBudget, plugin.ErrorOf(err).Code)
	assert.Contains(t, err.Error(), "budget of 2 calls is spent")
	assert.Equal(t, 2, f.Hits(), "the refused call never reached the server")
	assert.Equal(t, 2, m.Used())

	b := m.Budgets(plugin.Budgets{MaxFrameDepth: 3})
	assert.Equal(t, plugin.Budgets{MaxLLMCalls: 2, RemainingLLMCalls: 0, MaxFrameDepth: 3}, b)

	rep := m.Report()
	require.Len(t, rep, 3)
	assert.Equal(t, "sd-llm-fast", rep[0].PluginID)
	assert.Equal(t, 1, rep[0].Calls)
	assert.Equal(t, "served-model", rep[0].Model)
	assert.Equal(t, plugin.RoleSeedFast, rep[0].Role)
	assert.Equal(t, Usage{11, 7, 18}, rep[0].Usage)
	assert.Equal(t, Stats{PluginID: "val-llm", Refused: 1, LastError: CodeBudget}, rep[2])
	assert.Equal(t, rep[1], m.Plugin("gs-llm-fast"))
	assert.Equal(t, Stats{PluginID: "nobody"}, m.Plugin("nobody"))
}

func TestMeterZeroAndUnlimited(t *testing.T) {
	f := newFake(t, step{})
	zero := NewMeter(bridgeFor(f, testOpts(nil)), 0)
	_, err := zero.Complete(context.Background(), req("p", plugin.RoleGoalFast, "a"))
	assert.True(t, IsBudget(err))
	assert.Zero(t, f.Hits())

	unl := NewMeter(bridgeFor(f, testOpts(nil)), -1)
	for range 5 {
		_, err := unl.Complete(context.Background(), req("p", plugin.RoleGoalFast, "a"))
		require.NoError(t, err)
	}
	assert.Equal(t, -1, unl.Remaining())
	assert.Equal(t, 5, unl.Plugin("p").Calls)
}

func TestMeterStage(t *testing.T) {
	f := newFake(t, step{}, step{status: 401}, step{})
	m := NewMeter(bridgeFor(f, testOpts(nil)), 10)
	st := m.Stage("sd-llm-deep", 2)
	ctx := context.Background()

	// The stage stamps its plugin id, whatever the plugin claims.
	_, err := st.Complete(ctx, req("someone-else", plugin.RoleSeedDeep, "a"))
	require.NoError(t, err)
	// A failed call that reached the server is charged.
	_, err = st.Complete(ctx, req("", plugin.RoleSeedDeep, "b"))
	assert.Equal(t, CodeAuth, CodeOf(err))
	// The declared maxLLMCalls of 2 is spent.
	_, err = st.Complete(ctx, req("", plugin.RoleSeedDeep, "c"))
	assert.True(t, IsBudget(err))
	assert.Contains(t, err.Error(), "maxLLMCalls 2")
	assert.Equal(t, 2, f.Hits())

	s := st.Stats()
	assert.Equal(t, "sd-llm-deep", s.PluginID)
	assert.Equal(t, 2, s.Calls)
	assert.Equal(t, 1, s.Failed)
	assert.Equal(t, 1, s.Refused)
	assert.Equal(t, CodeBudget, s.LastError)
	assert.Equal(t, plugin.RoleSeedDeep, s.Role)
	assert.Equal(t, []string{"served-model", "test-model"}, s.Models)
	assert.Equal(t, 8, m.Remaining())
	assert.Zero(t, m.Plugin("someone-else").Calls, "the stage charged its own plugin")

	// A second stage of the same plugin has its own cap; the request totals.
	st2 := m.Stage("sd-llm-deep", 2)
	_, err = st2.Complete(ctx, req("", plugin.RoleSeedDeep, "d"))
	require.NoError(t, err)
	assert.Equal(t, 1, st2.Stats().Calls)
	assert.Equal(t, 3, m.Plugin("sd-llm-deep").Calls)
	assert.Equal(t, 7, m.Remaining())
}

func TestMeterRefundsCallsThatNeverLeft(t *testing.T) {
	m := NewMeter(NewBridgeWith(&Resolver{Getenv: envOf(nil)}, Options{}), 1)
	_, err := m.Complete(context.Background(), req("gs-llm-fast", plugin.RoleGoalFast, "a"))
	assert.True(t, IsNotConfigured(err))
	assert.Equal(t, 1, m.Remaining(), "not configured: refunded")
	assert.Equal(t, CodeNotConfigured, m.Plugin("gs-llm-fast").LastError)
	assert.Zero(t, m.Plugin("gs-llm-fast").Calls)

	f := newFake(t, step{})
	m = NewMeter(bridgeFor(f, testOpts(nil)), 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.Complete(ctx, req("p", plugin.RoleGoalFast, "a"))
	assert.Equal(t, CodeCanceled, CodeOf(err))
	assert.Equal(t, 1, m.Remaining(), "canceled before sending: refunded")

	nilMeter := NewMeter(nil, 5)
	_, err = nilMeter.Complete(context.Background(), req("p", plugin.RoleGoalFast, "a"))
	assert.True(t, IsNotConfigured(err))
	assert.Equal(t, 5, nilMeter.Remaining())
}

func TestMeterConcurrentNeverOverspends(t *testing.T) {
	f := newFake(t, step{})
	m := NewMeter(bridgeFor(f, testOpts(nil)), 5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for range 20 {
		wg.Go(func() {
			_, err := m.Complete(context.Background(), req("p", plugin.RoleGoalFast, "a"))
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else if IsBudget(err) {
				refused++
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 5, ok)
	assert.Equal(t, 15, refused)
	assert.Equal(t, 5, f.Hits())
}

// plainLLM is an plugin.LLM that is not a Chatter.
type plainLLM struct{ err error }

func (p plainLLM) Complete(context.Context, plugin.LLMRequest) (*plugin.LLMResponse, error) {
	if p.err != nil {
		return nil, p.err
	}
	return &plugin.LLMResponse{Text: "t", Model: "plain", PromptTokens: 2, CompletionTokens: 3}, nil
}

func TestMeterOverPlainLLM(t *testing.T) {
	m := NewMeter(plainLLM{}, 2)
	r, err := m.Complete(context.Background(), req("p", plugin.RoleGoalFast, "a"))
	require.NoError(t, err)
	assert.Equal(t, "t", r.Text)
	assert.Equal(t, Usage{2, 3, 5}, m.Plugin("p").Usage)

	m = NewMeter(plainLLM{err: errors.New("boom")}, 2)
	_, err = m.Complete(context.Background(), req("p", plugin.RoleGoalFast, "a"))
	assert.EqualError(t, err, "boom")
	assert.Equal(t, 1, m.Remaining(), "an unknown failure is charged")
	assert.Equal(t, plugin.CodePluginFailed, m.Plugin("p").LastError)
}

func TestCache(t *testing.T) {
	caches := map[string]Cache{"memory": NewMemoryCache(), "store": StoreCache(memStore{m: map[string][]byte{}})}
	for name, cache := range caches {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, step{body: okReply("first")}, step{body: okReply("second")})
			o := testOpts(nil)
			o.Cache = cache
			m := NewMeter(bridgeFor(f, o), 10)
			ctx := context.Background()

			r1, err := m.Complete(ctx, req("gs-llm-fast", plugin.RoleGoalFast, "q"))
			require.NoError(t, err)
			r2, err := m.Complete(ctx, req("gs-llm-fast", plugin.RoleGoalFast, "q"))
			require.NoError(t, err)
			assert.Equal(t, 1, f.Hits(), "the second call is answered from the cache")
			assert.Equal(t, r1, r2)
			assert.Equal(t, "first", r2.Text)
			s := m.Plugin("gs-llm-fast")
			assert.Equal(t, 2, s.Calls, "cache hits are charged, so runs behave the same with and without the cache")
			assert.Equal(t, 1, s.CacheHits)

			// A different temperature, max_tokens, JSON flag or prompt misses.
			q := req("gs-llm-fast", plugin.RoleGoalFast, "q")
			q.Temperature = fptr(0.9)
			_, err = m.Complete(ctx, q)
			require.NoError(t, err)
			q = req("gs-llm-fast", plugin.RoleGoalFast, "q")
			q.MaxTokens = 7
			_, err = m.Complete(ctx, q)
			require.NoError(t, err)
			q = req("gs-llm-fast", plugin.RoleGoalFast, "q")
			q.JSON = true
			_, err = m.Complete(ctx, q)
			require.NoError(t, err)
			_, err = m.Complete(ctx, req("gs-llm-fast", plugin.RoleGoalFast, "other"))
			require.NoError(t, err)
			assert.Equal(t, 5, f.Hits())

			// Failures are not cached.
			g := newFake(t, step{status: 400}, step{})
			o.Cache = NewMemoryCache()
			b := bridgeFor(g, o)
			_, err = b.Complete(ctx, req("p", plugin.RoleGoalFast, "q"))
			require.Error(t, err)
			_, err = b.Complete(ctx, req("p", plugin.RoleGoalFast, "q"))
			require.NoError(t, err)
			assert.Equal(t, 2, g.Hits())
		})
	}
}

func TestCacheKeyStable(t *testing.T) {
	ep := Endpoint{BaseURL: "http://h/v1", Model: "m", APIKey: NewSecret(testKey), Temperature: fptr(0)}
	c, err := NewClient(ep, Options{})
	require.NoError(t, err)
	k1 := cacheKey(ep, c.build(ChatRequest{Messages: msgs("a")}, false))
	k2 := cacheKey(ep, c.build(ChatRequest{Messages: msgs("a")}, true))
	assert.Equal(t, k1, k2, "streaming or not, the same reply")
	assert.Regexp(t, `^llm1/m/[0-9a-f]{64}$`, string(k1))
	ep2 := ep
	ep2.APIKey = NewSecret("another-key")
	assert.Equal(t, k1, cacheKey(ep2, c.build(ChatRequest{Messages: msgs("a")}, false)), "the key is not part of the cache key")
	ep3 := ep
	ep3.BaseURL = "http://other/v1"
	assert.NotEqual(t, k1, cacheKey(ep3, c.build(ChatRequest{Messages: msgs("a")}, false)))
}

func TestCacheUnreadableEntryIsAMiss(t *testing.T) {
	f := newFake(t, step{})
	mc := NewMemoryCache()
	o := testOpts(nil)
	o.Cache = mc
	c, err := NewClient(testEndpoint(f), o)
	require.NoError(t, err)
	key := cacheKey(c.ep, c.build(ChatRequest{Messages: msgs("a")}, false))
	require.NoError(t, mc.Put(key, []byte("not json")))
	r, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("a")})
	require.NoError(t, err)
	assert.False(t, r.Cached)
	assert.Equal(t, 1, f.Hits())
	assert.Equal(t, 1, mc.Len())
	r, err = c.Chat(context.Background(), ChatRequest{Messages: msgs("a")})
	require.NoError(t, err)
	assert.True(t, r.Cached, "the bad entry was replaced")
}

func TestCacheStream(t *testing.T) {
	f := newFake(t, step{stream: []string{chunk("ab", ""), chunk("c", "stop"), "[DONE]"}})
	o := testOpts(nil)
	o.Cache = NewMemoryCache()
	c, err := NewClient(testEndpoint(f), o)
	require.NoError(t, err)
	var got []string
	on := func(s string) error { got = append(got, s); return nil }
	_, err = c.Stream(context.Background(), ChatRequest{Messages: msgs("a")}, on)
	require.NoError(t, err)
	r, err := c.Stream(context.Background(), ChatRequest{Messages: msgs("a")}, on)
	require.NoError(t, err)
	assert.True(t, r.Cached)
	assert.Equal(t, []string{"ab", "c", "abc"}, got)
	assert.Equal(t, 1, f.Hits())
}

// memStore is an plugin.Store over a map.
type memStore struct {
	m map[string][]byte
}

func (s memStore) View(fn func(plugin.KV) error) error   { return fn(memKV(s)) }
func (s memStore) Update(fn func(plugin.KV) error) error { return fn(memKV(s)) }

type memKV memStore

func (k memKV) Get(key []byte) []byte { return k.m[string(key)] }
func (k memKV) Put(key, value []byte) error {
	k.m[string(key)] = append([]byte(nil), value...)
	return nil
}
func (k memKV) Delete(key []byte) error { delete(k.m, string(key)); return nil }
func (k memKV) Writable() bool          { return true }
func (k memKV) Scan(prefix, start []byte, fn func(key, value []byte) error) error {
	return errors.New("not needed")
}
