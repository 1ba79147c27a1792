import t from 'tap';
import { aliasProblems, ModelAliases } from '../../../core/routing/model-aliases.js';

const providers = [{ name: 'gx-main', models: ['gx-2.5-pro', 'gx-3*'], model_map: { 'gx-latest': 'gemini-2.5-pro' } }];

t.test('an alias resolves to its model, through a chain of aliases; any other name to itself', async (t) => {
  const aliases = new ModelAliases({ 'team-pro': 'gx-2.5-pro', 'team-default': 'team-pro', 'team-next': 'gx-3-pro-preview' });
  t.equal(aliases.resolve('team-pro'), 'gx-2.5-pro');
  t.equal(aliases.resolve('team-default'), 'gx-2.5-pro', 'a chain is followed to its end');
  t.equal(aliases.resolve('team-next'), 'gx-3-pro-preview', 'a target a pattern serves');
  t.equal(aliases.resolve('gx-2.5-pro'), 'gx-2.5-pro');
  t.ok(aliases.isAlias('team-default'));
  t.notOk(aliases.isAlias('gx-2.5-pro'));
});

t.test('aliases that serve models a channel lists have no problems', async (t) => {
  t.same(aliasProblems({ aliases: { 'team-pro': 'gx-2.5-pro', 'team-default': 'team-pro', latest: 'gx-latest', next: 'gx-3-pro-preview' }, providers }), []);
});

t.test('a cycle, a chain to a model no channel serves and an alias that shadows a served model are each named', async (t) => {
  t.same(aliasProblems({ aliases: { a: 'b', b: 'c', c: 'a' }, providers }).map((problem) => problem.message), [
    'a → b → c → a is a cycle; make one of them name a model a channel serves',
    'b → c → a → b is a cycle; make one of them name a model a channel serves',
    'c → a → b → c is a cycle; make one of them name a model a channel serves',
  ]);
  t.same(aliasProblems({ aliases: { self: 'self' }, providers }), [{ alias: 'self', message: 'self → self is a cycle; make one of them name a model a channel serves' }]);
  t.same(aliasProblems({ aliases: { old: 'older', older: 'gx-1.0-ultra' }, providers }), [
    { alias: 'old', message: 'old → older → gx-1.0-ultra ends at "gx-1.0-ultra", which no channel serves; name a model of a channel\'s models or model_map' },
    { alias: 'older', message: 'older → gx-1.0-ultra ends at "gx-1.0-ultra", which no channel serves; name a model of a channel\'s models or model_map' },
  ]);
  t.same(aliasProblems({ aliases: { 'gx-3-pro-preview': 'gx-2.5-pro' }, providers }), [
    { alias: 'gx-3-pro-preview', message: '"gx-3-pro-preview" is also a model channel gx-main serves; rename the alias or remove the model from the channel' },
  ]);
});
